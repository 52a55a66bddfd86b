// kopt.eval/1: the JSON of an evaluation (kopt/eval_json.hpp).
#include "kopt/eval_json.hpp"

#include <fmt/format.h>

#include "kopt/json_cursor.hpp"

namespace kopt {
namespace {

using json_doc::decode_device;
using json_doc::decode_optional_timing;
using json_doc::encode;
using json_doc::JsonCursor;
using json_doc::number_to_json;
using json_doc::optional_number_to_json;

constexpr CandidateStatus kAllStatuses[] = {
    CandidateStatus::ok,
    CandidateStatus::compile_error,
    CandidateStatus::load_error,
    CandidateStatus::launch_error,
    CandidateStatus::runtime_error,
    CandidateStatus::timeout,
    CandidateStatus::wrong_output,
    CandidateStatus::nondeterministic,
    CandidateStatus::input_mutated,
    CandidateStatus::out_of_bounds_write,
    CandidateStatus::implausibly_fast,
    CandidateStatus::sandbox_violation,
};

std::string status_choices() {
  std::string text = "one of";
  for (auto status : kAllStatuses) text += fmt::format(" {}", to_string(status));
  return text;
}

CandidateStatus decode_status(JsonCursor const& cursor) {
  auto status = candidate_status_from_string(cursor.as_string());
  if (!status) {
    cursor.fail(status_choices());
    return CandidateStatus::ok;
  }
  return *status;
}

CandidateMode decode_mode(JsonCursor const& cursor) {
  std::string text = cursor.as_string();
  for (auto mode : {CandidateMode::kernel, CandidateMode::launcher}) {
    if (to_string(mode) == text) return mode;
  }
  cursor.fail("\"kernel\" or \"launcher\"");
  return CandidateMode::kernel;
}

TimingTier decode_tier(JsonCursor const& cursor) {
  auto tier = timing_tier_from_string(cursor.as_string());
  if (!tier) {
    cursor.fail("\"screen\" or \"confirm\"");
    return TimingTier::confirm;
  }
  return *tier;
}

// Resource counts are -1 when unknown; JSON says null.
nlohmann::json encode_count(int value) {
  return value < 0 ? nlohmann::json(nullptr) : nlohmann::json(value);
}
int decode_count(JsonCursor const& cursor) {
  return cursor.is_null() ? -1 : cursor.as_int();
}

nlohmann::json encode(ResourceUsage const& usage) {
  return {
      {"registers", encode_count(usage.registers)},
      {"spill_stores_bytes", encode_count(usage.spill_stores_bytes)},
      {"spill_loads_bytes", encode_count(usage.spill_loads_bytes)},
      {"static_shared_bytes", encode_count(usage.static_shared_bytes)},
      {"stack_bytes", encode_count(usage.stack_bytes)},
  };
}

ResourceUsage decode_resources(JsonCursor const& cursor) {
  ResourceUsage usage;
  usage.registers = decode_count(cursor.field("registers"));
  usage.spill_stores_bytes = decode_count(cursor.field("spill_stores_bytes"));
  usage.spill_loads_bytes = decode_count(cursor.field("spill_loads_bytes"));
  usage.static_shared_bytes = decode_count(cursor.field("static_shared_bytes"));
  usage.stack_bytes = decode_count(cursor.field("stack_bytes"));
  return usage;
}

nlohmann::json encode(PhaseTimes const& phases) {
  return {
      {"compile_ms", number_to_json(phases.compile_ms)},
      {"load_ms", number_to_json(phases.load_ms)},
      {"verify_ms", number_to_json(phases.verify_ms)},
      {"time_ms", number_to_json(phases.time_ms)},
      {"total_ms", number_to_json(phases.total_ms)},
      {"activity_ms", number_to_json(phases.activity_ms)},
      {"compile_wait_ms", number_to_json(phases.compile_wait_ms)},
      {"worker_ms", number_to_json(phases.worker_ms)},
      {"trusted_build_ms", number_to_json(phases.trusted_build_ms)},
      {"reference_ms", number_to_json(phases.reference_ms)},
  };
}

PhaseTimes decode_phases(JsonCursor const& cursor) {
  PhaseTimes phases;
  phases.compile_ms = cursor.field("compile_ms").as_number();
  phases.load_ms = cursor.field("load_ms").as_number();
  phases.verify_ms = cursor.field("verify_ms").as_number();
  phases.time_ms = cursor.field("time_ms").as_number();
  phases.total_ms = cursor.field("total_ms").as_number();
  phases.activity_ms = cursor.optional_field("activity_ms").as_optional_number().value_or(0.0);
  phases.compile_wait_ms = cursor.optional_field("compile_wait_ms").as_optional_number().value_or(0.0);
  phases.worker_ms = cursor.optional_field("worker_ms").as_optional_number().value_or(0.0);
  phases.trusted_build_ms = cursor.optional_field("trusted_build_ms").as_optional_number().value_or(0.0);
  phases.reference_ms = cursor.optional_field("reference_ms").as_optional_number().value_or(0.0);
  return phases;
}

// Kernel activity of one call (null when none was recorded).
nlohmann::json encode(std::optional<KernelActivity> const& activity) {
  if (!activity) return nullptr;
  nlohmann::json kernels = nlohmann::json::array();
  for (auto const& k : activity->kernels) {
    kernels.push_back({{"name", k.name}, {"count", k.count}, {"total_us", number_to_json(k.total_us)}});
  }
  return {
      {"launches", activity->launches},
      {"kernel_us", optional_number_to_json(activity->kernel_us)},
      {"span_us", optional_number_to_json(activity->span_us)},
      {"call_us", optional_number_to_json(activity->call_us)},
      {"memcpys", activity->memcpys},
      {"memsets", activity->memsets},
      {"kernels", std::move(kernels)},
      {"source", activity->from_cupti ? "cupti" : "kernel_mode"},
  };
}

// Documents written before kernel activity existed have no such field: that reads as none.
std::optional<KernelActivity> decode_activity(JsonCursor const& cursor) {
  if (cursor.is_null()) return std::nullopt;
  KernelActivity activity;
  activity.launches = cursor.field("launches").as_int();
  activity.kernel_us = cursor.field("kernel_us").as_optional_number();
  activity.span_us = cursor.field("span_us").as_optional_number();
  activity.call_us = cursor.field("call_us").as_optional_number();
  activity.memcpys = cursor.field("memcpys").as_int();
  activity.memsets = cursor.field("memsets").as_int();
  JsonCursor kernels = cursor.field("kernels");
  for (std::size_t i = 0, n = kernels.array_size(); i < n; ++i) {
    JsonCursor k = kernels.element(i);
    activity.kernels.push_back(KernelActivityKernel{k.field("name").as_string(), k.field("count").as_int(),
                                                    k.field("total_us").as_number()});
  }
  std::string const source = cursor.field("source").as_string();
  if (source != "cupti" && source != "kernel_mode")
    cursor.field("source").fail("\"cupti\" or \"kernel_mode\"");
  activity.from_cupti = source != "kernel_mode";
  return activity;
}

nlohmann::json encode(SizeResult const& size) {
  return {
      {"size", size.size},
      {"verify_only", size.verify_only},
      {"status", to_string(size.status)},
      {"message", size.message},
      {"max_abs_err", number_to_json(size.max_abs_err)},
      {"max_rel_err", number_to_json(size.max_rel_err)},
      {"mismatches", size.mismatches},
      {"seeds", size.seeds},
      {"reference", encode(size.reference)},
      {"candidate", encode(size.candidate)},
      {"baseline", encode(size.baseline)},
      {"speedup", optional_number_to_json(size.speedup)},
      {"vs_baseline", optional_number_to_json(size.vs_baseline)},
      {"bytes", optional_number_to_json(size.bytes)},
      {"flops", optional_number_to_json(size.flops)},
      {"sol_us", number_to_json(size.sol_us)},
      {"achieved_gbps", optional_number_to_json(size.achieved_gbps)},
      {"achieved_gflops", optional_number_to_json(size.achieved_gflops)},
      {"pct_of_sol", optional_number_to_json(size.pct_of_sol)},
      {"activity", encode(size.activity)},
      {"reference_activity", encode(size.reference_activity)},
  };
}

SizeResult decode_size(JsonCursor const& cursor) {
  SizeResult size;
  size.size = cursor.field("size").as_string();
  size.verify_only = cursor.field("verify_only").as_bool();
  size.status = decode_status(cursor.field("status"));
  size.message = cursor.field("message").as_string();
  size.max_abs_err = cursor.field("max_abs_err").as_number();
  size.max_rel_err = cursor.field("max_rel_err").as_number();
  size.mismatches = static_cast<std::size_t>(cursor.field("mismatches").as_uint64());
  JsonCursor seeds = cursor.field("seeds");
  for (std::size_t i = 0, n = seeds.array_size(); i < n; ++i)
    size.seeds.push_back(seeds.element(i).as_uint64());
  size.reference = decode_optional_timing(cursor.field("reference"));
  size.candidate = decode_optional_timing(cursor.field("candidate"));
  size.baseline = decode_optional_timing(cursor.field("baseline"));
  size.speedup = cursor.field("speedup").as_optional_number();
  size.vs_baseline = cursor.field("vs_baseline").as_optional_number();
  size.bytes = cursor.field("bytes").as_optional_number();
  size.flops = cursor.field("flops").as_optional_number();
  size.sol_us = cursor.field("sol_us").as_number();
  size.achieved_gbps = cursor.field("achieved_gbps").as_optional_number();
  size.achieved_gflops = cursor.field("achieved_gflops").as_optional_number();
  size.pct_of_sol = cursor.field("pct_of_sol").as_optional_number();
  size.activity = decode_activity(cursor.optional_field("activity"));
  size.reference_activity = decode_activity(cursor.optional_field("reference_activity"));
  return size;
}

nlohmann::json encode(CandidateReport const& candidate) {
  nlohmann::json sizes = nlohmann::json::array();
  for (auto const& size : candidate.sizes) sizes.push_back(encode(size));
  return {
      {"name", candidate.name},
      {"path", candidate.path.string()},
      {"mode", to_string(candidate.mode)},
      {"status", to_string(candidate.status)},
      {"message", candidate.message},
      {"diagnostics", candidate.diagnostics},
      {"cache_hit", candidate.cache_hit},
      {"resources", encode(candidate.resources)},
      {"sizes", std::move(sizes)},
      {"geomean_speedup", optional_number_to_json(candidate.geomean_speedup)},
      {"phases", encode(candidate.phases)},
      {"sanitizer", candidate.sanitizer},
      {"ran_on", candidate.ran_on ? json_doc::encode(*candidate.ran_on) : nlohmann::json(nullptr)},
  };
}

CandidateReport decode_candidate(JsonCursor const& cursor) {
  CandidateReport candidate;
  candidate.name = cursor.field("name").as_string();
  candidate.path = cursor.field("path").as_string();
  candidate.mode = decode_mode(cursor.field("mode"));
  candidate.status = decode_status(cursor.field("status"));
  candidate.message = cursor.field("message").as_string();
  candidate.diagnostics = cursor.field("diagnostics").as_string();
  candidate.cache_hit = cursor.field("cache_hit").as_bool();
  candidate.resources = decode_resources(cursor.field("resources"));
  JsonCursor sizes = cursor.field("sizes");
  for (std::size_t i = 0, n = sizes.array_size(); i < n; ++i) {
    candidate.sizes.push_back(decode_size(sizes.element(i)));
  }
  candidate.geomean_speedup = cursor.field("geomean_speedup").as_optional_number();
  candidate.phases = decode_phases(cursor.field("phases"));
  candidate.sanitizer = cursor.field("sanitizer").as_string();
  candidate.ran_on = json_doc::decode_place(cursor.optional_field("ran_on"));
  return candidate;
}

}  // namespace

nlohmann::json to_json(EvalReport const& report) {
  nlohmann::json candidates = nlohmann::json::array();
  for (auto const& candidate : report.candidates) candidates.push_back(encode(candidate));
  return {
      {"schema", kEvalSchema},
      {"task", report.task},
      {"task_dir", report.task_dir.string()},
      {"device", encode(report.device)},
      {"toolkit", report.toolkit},
      {"seed", report.seed},
      {"tier", to_string(report.tier)},
      {"started_at", report.started_at},
      {"wall_ms", number_to_json(report.wall_ms)},
      {"candidates", std::move(candidates)},
  };
}

Result<EvalReport> eval_report_from_json(nlohmann::json const& json) {
  std::string error;
  JsonCursor document(json, "", &error);
  json_doc::expect_schema(document, kEvalSchema);
  EvalReport report;
  report.task = document.field("task").as_string();
  report.task_dir = document.field("task_dir").as_string();
  report.device = decode_device(document.field("device"));
  report.toolkit = document.field("toolkit").as_string();
  report.seed = document.field("seed").as_uint64();
  report.tier = decode_tier(document.field("tier"));
  report.started_at = document.field("started_at").as_string();
  report.wall_ms = document.field("wall_ms").as_number();
  JsonCursor candidates = document.field("candidates");
  for (std::size_t i = 0, n = candidates.array_size(); i < n; ++i) {
    report.candidates.push_back(decode_candidate(candidates.element(i)));
  }
  if (!error.empty())
    return make_error(ErrorCode::invalid_spec, fmt::format("{} report: {}", kEvalSchema, error));
  return report;
}

}  // namespace kopt
