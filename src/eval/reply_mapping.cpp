#include "eval/reply_mapping.hpp"

#include <fmt/format.h>

#include "eval/size_metrics.hpp"
#include "kopt/inputs.hpp"
#include "worker/client/kernel_activity_summary.hpp"
#include "worker/client/protocol.hpp"

namespace kopt {

using nlohmann::json;

namespace {

Error reply_error(json const& body) {
  auto const& e = body.at("error");
  std::string const code = e.value("code", "worker_error");
  ErrorCode ec = ErrorCode::worker_error;
  if (code == "invalid_spec") ec = ErrorCode::invalid_spec;
  if (code == "invalid_argument") ec = ErrorCode::invalid_argument;
  if (code == "internal_error") ec = ErrorCode::internal_error;
  if (code == "not_found") ec = ErrorCode::not_found;
  return make_error(ec, e.value("message", "the GPU worker reported an error"));
}

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

KernelTiming kernel_timing_from_json(json const& j) {
  KernelTiming t;
  t.us = worker::sample_stats_from_json(j.at("us"));
  if (j.contains("graph_us")) t.graph_us = worker::sample_stats_from_json(j["graph_us"]);
  t.device_wide = j.value("device_wide", false);
  t.warmup_ms = j.value("warmup_ms", 0.0);
  return t;
}

namespace {
Status apply_reply_unchecked(TaskSpec const& task, DeviceInfo const& device, worker::Reply const& reply,
                             CandidateReport& report);
Status apply_check_reply_unchecked(TaskSpec const& task, worker::Reply const& reply, TaskCheckReport& report);
}  // namespace

// A malformed reply (a field missing or of the wrong type) is the worker's fault, never a crash.
Status apply_reply(TaskSpec const& task, DeviceInfo const& device, worker::Reply const& reply,
                   CandidateReport& report) {
  try {
    return apply_reply_unchecked(task, device, reply, report);
  } catch (json::exception const& e) {
    return make_error(ErrorCode::worker_error,
                      std::string("malformed reply from the GPU worker: ") + e.what());
  }
}

Status apply_check_reply(TaskSpec const& task, worker::Reply const& reply, TaskCheckReport& report) {
  try {
    return apply_check_reply_unchecked(task, reply, report);
  } catch (json::exception const& e) {
    return make_error(ErrorCode::worker_error,
                      std::string("malformed reply from the GPU worker: ") + e.what());
  }
}

namespace {

Status apply_reply_unchecked(TaskSpec const& task, DeviceInfo const& device, worker::Reply const& reply,
                             CandidateReport& report) {
  static json const kEmpty = json::object();
  json const& body = reply.body.is_object() ? reply.body : kEmpty;
  if (body.contains("error")) return reply_error(body);
  // The worker died while this candidate ran.
  if (reply.worker_died && !body.contains("candidate")) {
    std::string const fatal = body.value("fatal", "");
    if (fatal == "timeout" || reply.client_timeout) {
      report.status = CandidateStatus::timeout;
      report.message = body.value("message", std::string("no answer from the GPU worker; it was killed"));
    } else {
      report.status = CandidateStatus::runtime_error;
      report.message = "the GPU worker died while running the candidate (" + reply.exit.describe() + ")";
      if (!reply.stderr_tail.empty()) report.message += ": " + first_lines(reply.stderr_tail, 5);
    }
    return Ok{};
  }
  report.phases.load_ms = body.value("load_ms", 0.0);
  report.phases.verify_ms = body.value("verify_ms", 0.0);
  report.phases.time_ms = body.value("time_ms", 0.0);
  report.phases.activity_ms = body.value("activity_ms", 0.0);
  auto const& cand = body.at("candidate");
  auto status = candidate_status_from_string(cand.value("status", "runtime_error"));
  report.status = status.value_or(CandidateStatus::runtime_error);
  report.message = cand.value("message", "");
  if (reply.worker_died && report.status == CandidateStatus::ok)
    report.status = CandidateStatus::runtime_error;

  double const graph_below = policy_for(TimingTier::confirm).graph_below_us;
  std::vector<double> speedups;
  for (auto const& s : body.value("sizes", json::array())) {
    SizeResult r;
    r.size = s.at("size").get<std::string>();
    r.verify_only = s.value("verify_only", false);
    r.status = candidate_status_from_string(s.value("status", "ok")).value_or(CandidateStatus::runtime_error);
    r.message = s.value("message", "");
    r.max_abs_err = s.value("max_abs_err", 0.0);
    r.max_rel_err = s.value("max_rel_err", 0.0);
    r.mismatches = s.value("mismatches", std::size_t{0});
    r.seeds = s.value("seeds", std::vector<std::uint64_t>{});
    if (s.contains("reference")) r.reference = kernel_timing_from_json(s["reference"]);
    if (s.contains("candidate")) r.candidate = kernel_timing_from_json(s["candidate"]);
    if (s.contains("baseline")) r.baseline = kernel_timing_from_json(s["baseline"]);
    if (s.contains("activity")) r.activity = worker::kernel_activity_from_json(s["activity"]);
    if (s.contains("reference_activity"))
      r.reference_activity = worker::kernel_activity_from_json(s["reference_activity"]);
    // Why there is no kernel activity (CUPTI missing or failing): kept where a passing size has no message.
    if (s.contains("activity_note") && r.message.empty() && r.status == CandidateStatus::ok)
      r.message = "kernel activity: " + s["activity_note"].get<std::string>();
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
    if (s.contains("timing_note") && report.message.empty())
      report.message = s["timing_note"].get<std::string>();
    report.sizes.push_back(std::move(r));
  }
  if (!speedups.empty() && report.status == CandidateStatus::ok) report.geomean_speedup = geomean(speedups);
  return Ok{};
}

Status apply_check_reply_unchecked(TaskSpec const& task, worker::Reply const& reply,
                                   TaskCheckReport& report) {
  static json const kEmpty = json::object();
  json const& body = reply.body.is_object() ? reply.body : kEmpty;
  if (reply.worker_died && !body.contains("sizes")) {
    return make_error(ErrorCode::worker_error, "the GPU worker died while running the task's reference (" +
                                                   reply.exit.describe() +
                                                   "): " + first_lines(reply.stderr_tail, 5));
  }
  if (body.contains("error")) return reply_error(body);
  for (auto const& s : body.at("sizes")) {
    TaskCheckSize out;
    out.size = s.at("size").get<std::string>();
    SizeCase const* size = nullptr;
    for (auto const& sc : task.sizes) {
      if (sc.name == out.size) size = &sc;
    }
    if (size != nullptr) {
      if (auto lengths = buffer_lengths(task, *size)) {
        for (std::size_t i = 0; i < task.buffers.size(); ++i) {
          out.buffer_elements.emplace_back(task.buffers[i].name, (*lengths)[i]);
        }
      }
      auto env = task.env_for(*size);
      if (task.work.bytes) {
        if (auto v = task.work.bytes->evaluate(env)) out.bytes = static_cast<double>(*v);
      }
      if (task.work.flops) {
        if (auto v = task.work.flops->evaluate(env)) out.flops = static_cast<double>(*v);
      }
    }
    if (s.contains("reference")) out.reference = kernel_timing_from_json(s["reference"]);
    if (s.contains("baseline")) out.baseline = kernel_timing_from_json(s["baseline"]);
    out.deterministic = s.value("deterministic", true);
    out.reference_constant = s.value("reference_constant", false);
    out.note = s.value("note", "");
    if (out.reference_constant) {
      report.warnings.push_back(
          "size '" + out.size +
          "': the reference output is constant, so a kernel writing that constant would pass; "
          "change the inputs or sizes");
    }
    if (!out.deterministic) report.warnings.push_back("size '" + out.size + "': " + out.note);
    if (s.value("baseline_status", "ok") != "ok")
      report.warnings.push_back("size '" + out.size + "': " + out.note);
    report.sizes.push_back(std::move(out));
  }
  return Ok{};
}

}  // namespace
}  // namespace kopt
