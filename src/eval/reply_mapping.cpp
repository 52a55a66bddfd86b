#include "eval/reply_mapping.hpp"

#include <fmt/format.h>

#include "eval/size_metrics.hpp"
#include "kopt/inputs.hpp"
#include "kopt/worker/kernel_activity_summary.hpp"
#include "kopt/worker/protocol.hpp"
#include "kopt/worker/reply_messages.hpp"
#include "kopt/worker/verdict_messages.hpp"

namespace kopt {

using nlohmann::json;

namespace {

std::string first_lines(std::string const& text, std::size_t max_lines) {
  std::string out;
  std::size_t lines = 0;
  for (char c : text) {
    if (c == '\n' && ++lines >= max_lines) break;
    out += c;
  }
  return out;
}

}  // namespace

namespace {

KernelTiming kernel_timing_from(worker::TimingFields const& t) {
  KernelTiming timing;
  timing.us = t.us;
  timing.graph_us = t.graph_us;
  timing.device_wide = t.device_wide;
  timing.warmup_ms = t.warmup_ms;
  return timing;
}

// A worker that died while the candidate ran: timeout or runtime error, from how it ended.
void apply_worker_death(worker::Reply const& reply, nlohmann::json const& body, CandidateReport& report) {
  auto const fatal = worker::fatal_reply_in(body);
  if ((fatal && fatal->fatal == "timeout") || reply.client_timeout) {
    report.status = CandidateStatus::timeout;
    report.message = fatal ? fatal->message : std::string("no answer from the GPU worker; it was killed");
  } else {
    report.status = CandidateStatus::runtime_error;
    report.message = "the GPU worker died while running the candidate (" + reply.exit.describe() + ")";
    if (!reply.stderr_tail.empty()) report.message += ": " + first_lines(reply.stderr_tail, 5);
  }
}

// The verdict, read strictly, applied to the report.
void apply_verdict(TaskSpec const& task, DeviceInfo const& device, worker::Reply const& reply,
                   worker::EvaluateReply const& verdict, CandidateReport& report) {
  report.phases.load_ms = verdict.load_ms;
  report.phases.verify_ms = verdict.verify_ms;
  report.phases.time_ms = verdict.time_ms;
  report.phases.activity_ms = verdict.activity_ms;
  report.status = verdict.candidate.status;
  report.message = verdict.candidate.message;
  if (reply.worker_died && report.status == CandidateStatus::ok)
    report.status = CandidateStatus::runtime_error;

  double const graph_below = policy_for(TimingTier::confirm).graph_below_us;
  std::vector<double> speedups;
  for (auto const& s : verdict.sizes) {
    SizeResult r;
    r.size = s.size;
    r.verify_only = s.verify_only;
    r.status = s.verdict.status;
    r.message = s.verdict.message;
    r.max_abs_err = s.verdict.max_abs_err;
    r.max_rel_err = s.verdict.max_rel_err;
    r.mismatches = static_cast<std::size_t>(s.verdict.mismatches);
    r.seeds = s.seeds;
    if (s.reference) r.reference = kernel_timing_from(*s.reference);
    if (s.candidate) r.candidate = kernel_timing_from(*s.candidate);
    if (s.baseline) r.baseline = kernel_timing_from(*s.baseline);
    if (s.activity) r.activity = worker::kernel_activity_from_json(*s.activity);
    if (s.reference_activity) r.reference_activity = worker::kernel_activity_from_json(*s.reference_activity);
    // Why there is no kernel activity (CUPTI missing or failing): kept where a passing size has no message.
    if (s.activity_note && r.message.empty() && r.status == CandidateStatus::ok)
      r.message = "kernel activity: " + *s.activity_note;
    SizeCase const* size = nullptr;
    for (auto const& sc : task.sizes) {
      if (sc.name == r.size) size = &sc;
    }
    if (size != nullptr) apply_size_metrics(task, *size, device, graph_below, r);
    if (r.status == CandidateStatus::implausibly_fast && report.status == CandidateStatus::ok) {
      report.status = CandidateStatus::implausibly_fast;
      report.message = r.message;
    }
    if (r.speedup && r.status == CandidateStatus::ok) speedups.push_back(*r.speedup);
    if (s.timing_note && report.message.empty()) report.message = *s.timing_note;
    report.sizes.push_back(std::move(r));
  }
  if (!speedups.empty() && report.status == CandidateStatus::ok) report.geomean_speedup = geomean(speedups);
}

}  // namespace

Result<WorkerAfterReply> apply_reply(TaskSpec const& task, DeviceInfo const& device,
                                     worker::Reply const& reply, CandidateReport& report) {
  static json const kEmpty = json::object();
  json const& body = reply.body.is_object() ? reply.body : kEmpty;
  if (body.contains("error")) return worker::error_of_reply(body);
  if (reply.worker_died && !body.contains("candidate")) {
    apply_worker_death(reply, body, report);
    return WorkerAfterReply::keep;
  }
  auto verdict = worker::parse_evaluate_reply(body);
  if (!verdict) {
    // Fail closed: a verdict that cannot be read completely rejects the candidate.
    report.status = CandidateStatus::runtime_error;
    report.message = "rejected: " + verdict.error().message;
    return WorkerAfterReply::discard;
  }
  try {
    apply_verdict(task, device, reply, *verdict, report);
  } catch (json::exception const& e) {  // a kernel-activity block kernel_activity_from_json cannot read
    report.sizes.clear();
    report.geomean_speedup.reset();
    report.status = CandidateStatus::runtime_error;
    report.message = std::string("rejected: malformed reply from the GPU worker: ") + e.what();
    return WorkerAfterReply::discard;
  }
  return WorkerAfterReply::keep;
}

namespace {

// The figures the task itself gives a size case: its buffers' lengths, bytes moved and FLOPs.
void add_task_figures(TaskSpec const& task, SizeCase const& size, TaskCheckSize& out) {
  if (auto lengths = buffer_lengths(task, size)) {
    for (std::size_t i = 0; i < task.buffers.size(); ++i) {
      out.buffer_elements.emplace_back(task.buffers[i].name, (*lengths)[i]);
    }
  }
  auto env = task.env_for(size);
  if (task.work.bytes) {
    if (auto v = task.work.bytes->evaluate(env)) out.bytes = static_cast<double>(*v);
  }
  if (task.work.flops) {
    if (auto v = task.work.flops->evaluate(env)) out.flops = static_cast<double>(*v);
  }
}

}  // namespace

Status apply_check_reply(TaskSpec const& task, worker::Reply const& reply, TaskCheckReport& report) {
  static json const kEmpty = json::object();
  json const& body = reply.body.is_object() ? reply.body : kEmpty;
  if (reply.worker_died && !body.contains("sizes")) {
    return make_error(ErrorCode::worker_error, "the GPU worker died while running the task's reference (" +
                                                   reply.exit.describe() +
                                                   "): " + first_lines(reply.stderr_tail, 5));
  }
  if (body.contains("error")) return worker::error_of_reply(body);
  auto checked = worker::parse_check_task_reply(body);
  if (!checked) return checked.error();
  for (auto const& s : checked->sizes) {
    TaskCheckSize out;
    out.size = s.size;
    for (auto const& sc : task.sizes) {
      if (sc.name == out.size) add_task_figures(task, sc, out);
    }
    if (s.reference) out.reference = kernel_timing_from(*s.reference);
    if (s.baseline) out.baseline = kernel_timing_from(*s.baseline);
    out.deterministic = s.deterministic;
    out.reference_constant = s.reference_constant;
    out.note = s.note;
    if (out.reference_constant) {
      report.warnings.push_back(
          "size '" + out.size +
          "': the reference output is constant, so a kernel writing that constant would pass; "
          "change the inputs or sizes");
    }
    if (!out.deterministic) report.warnings.push_back("size '" + out.size + "': " + out.note);
    if (s.baseline_status.value_or("ok") != "ok")
      report.warnings.push_back("size '" + out.size + "': " + out.note);
    report.sizes.push_back(std::move(out));
  }
  return Ok{};
}

}  // namespace kopt
