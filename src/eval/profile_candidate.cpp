// profile_candidate: stage 1 (classify), stage 2 (tool metrics), static facts, findings.
#include "kopt/profile_candidate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "eval/size_metrics.hpp"
#include "kopt/profile.hpp"
#include "kopt/toolchain.hpp"

namespace kopt {
namespace {

constexpr char const* kDuration = "gpu__time_duration.sum";  // ns

std::vector<std::string> with_basics(std::vector<std::string> metrics) {
  for (char const* basic : {kDuration, "launch__grid_size", "launch__block_size", "launch__sm_count"}) {
    if (std::find(metrics.begin(), metrics.end(), basic) == metrics.end()) metrics.emplace_back(basic);
  }
  return metrics;
}

// The profiled rows of one stage; the main kernel is the longest.
struct StageRows {
  std::vector<NcuKernelRow> rows;
  std::size_t main = 0;
  std::filesystem::path artifact;  // the built candidate, for disassembly
  std::string symbol;              // its kernel's symbol (kernel mode)
  CandidateMode mode = CandidateMode::kernel;
};

Result<StageRows> run_stage(Evaluator& evaluator, TaskSpec const& task, CandidateSource const& candidate,
                            ProfileOptions const& options, std::vector<std::string> metrics,
                            CandidateProfile& out) {
  ProfileLaunchOptions launch;
  launch.size = options.size;
  launch.metrics = with_basics(std::move(metrics));
  launch.ncu = options.ncu;
  launch.max_kernels = options.max_kernels;
  auto profiled = evaluator.profile_launch(task, candidate, launch);
  if (!profiled) return profiled.error();
  out.size = profiled->size;
  out.status = profiled->status;
  out.message = profiled->message;
  out.commands.push_back(profiled->command);
  if (profiled->status != CandidateStatus::ok) return StageRows{};
  std::filesystem::path const artifact = profiled->artifact;
  std::string const symbol = profiled->mode == CandidateMode::kernel ? profiled->symbol : std::string();
  if (out.static_facts.registers_per_thread == std::nullopt && profiled->resources.registers >= 0) {
    ResourceUsage const& r = profiled->resources;
    out.static_facts.registers_per_thread = r.registers;
    if (r.spill_stores_bytes >= 0) out.static_facts.spill_store_bytes = r.spill_stores_bytes;
    if (r.spill_loads_bytes >= 0) out.static_facts.spill_load_bytes = r.spill_loads_bytes;
    if (r.static_shared_bytes >= 0) out.static_facts.static_shared_bytes = r.static_shared_bytes;
    if (r.stack_bytes >= 0) out.static_facts.stack_bytes = r.stack_bytes;
  }
  auto rows = parse_ncu_raw_csv(profiled->ncu_log, "ncu log");
  if (!rows) {
    return make_error(ErrorCode::toolchain_error,
                      "Nsight Compute profiled nothing in the candidate's call: " + rows.error().message);
  }
  StageRows stage{std::move(*rows), 0, artifact, symbol, profiled->mode};
  for (std::size_t i = 1; i < stage.rows.size(); ++i) {
    if (stage.rows[i].metric(kDuration).value_or(0) > stage.rows[stage.main].metric(kDuration).value_or(0))
      stage.main = i;
  }
  return stage;
}

// A launcher's kernel activity by size, from a (verified, timed) evaluation: CUPTI records it after timing.
void record_launcher_activity(Evaluator& evaluator, TaskSpec const& task, CandidateSource const& candidate,
                              std::map<std::string, KernelActivity>& activity, CandidateProfile& out) {
  auto evaluated = evaluator.evaluate(task, {candidate});
  if (!evaluated || evaluated->candidates.empty()) {
    out.notes.push_back("no kernel activity: the evaluation failed (" +
                        (evaluated ? std::string("no report") : evaluated.error().message) + ")");
    return;
  }
  CandidateReport const& report = evaluated->candidates.front();
  if (report.status != CandidateStatus::ok) {
    out.notes.push_back(fmt::format("no kernel activity: the candidate's evaluation says {}: {}",
                                    to_string(report.status), report.message));
  }
  for (SizeResult const& size : report.sizes) {
    if (auto timed = activity_for_profile(size)) activity.emplace(size.size, std::move(*timed));
  }
}

// SASS facts of the candidate's code, when a disassembler is there (the GPU machine has cuobjdump).
void add_disassembly_facts(std::filesystem::path const& artifact, std::string const& symbol,
                           CandidateProfile& out) {
  auto tool = find_program("cuobjdump");
  if (!tool && std::filesystem::exists(find_cuda_home() / "bin" / "cuobjdump"))
    tool = find_cuda_home() / "bin" / "cuobjdump";
  if (!tool) {
    out.notes.emplace_back(
        "no cuobjdump here: SASS facts (vector widths, tensor cores, local memory) unknown");
    return;
  }
  CommandResult const dump =
      run_program({tool->string(), "-sass", artifact.string()}, std::chrono::seconds(60));
  SassSummary const sass = parse_sass(dump.output);
  if (dump.exit_code != 0 || sass.functions.empty()) {
    out.notes.push_back(fmt::format("cuobjdump -sass gave no code (exit {})", dump.exit_code));
    return;
  }
  SassFunction const* found = symbol.empty() ? nullptr : sass.find(symbol);
  SassFunction const f = found != nullptr ? *found : sass.total();
  if (found == nullptr) out.notes.emplace_back("SASS facts summed over every function of the candidate");
  add_sass_facts(f, out.static_facts);
}

}  // namespace

void add_activity_facts(KernelActivity const& activity, WorkFacts& work) {
  work.launches_per_call = activity.launches;
  if (activity.kernel_us) work.kernel_us_per_call = *activity.kernel_us;
  if (activity.call_us) work.median_us = *activity.call_us;
}

void add_sass_facts(SassFunction const& f, StaticFacts& facts) {
  int const loads_128 = f.global.loads_of_width(128);
  int const loads_64 = f.global.loads_of_width(64);
  int const stores_128 = f.global.stores_of_width(128);
  int const stores_64 = f.global.stores_of_width(64);
  facts.global_loads_128 = loads_128;
  facts.global_loads_64 = loads_64;
  facts.global_loads_32 = f.global.loads() - loads_128 - loads_64;
  facts.global_stores_128 = stores_128;
  facts.global_stores_64 = stores_64;
  facts.global_stores_32 = f.global.stores() - stores_128 - stores_64;
  facts.tensor_instructions = f.tensor_instructions;
  facts.local_loads = f.local.loads();
  facts.local_stores = f.local.stores();
  facts.shared_loads = f.shared.loads();
  facts.shared_stores = f.shared.stores();
  facts.atomics = f.atomics;
  facts.barriers = f.barriers;
}

Result<CandidateProfile> profile_candidate(Evaluator& evaluator, TaskSpec const& task,
                                           CandidateSource const& candidate, ProfileOptions const& options) {
  auto const start = std::chrono::steady_clock::now();
  CandidateProfile out;
  out.task = task.name;
  out.candidate = candidate.name;

  auto stage1 = run_stage(evaluator, task, candidate, options, stage1_metrics(), out);
  if (!stage1) return stage1.error();
  if (out.status != CandidateStatus::ok) return out;
  NcuKernelRow const& main1 = stage1->rows[stage1->main];
  out.main_kernel = main1.kernel_name;
  for (auto const& row : stage1->rows) out.kernels.push_back(row.kernel_name);
  out.metrics = main1.metrics;

  // Work facts: the task's work model at this size, ncu's durations, the device.
  SizeCase const* size = nullptr;
  for (auto const& s : task.sizes) {
    if (s.name == out.size) size = &s;
  }
  if (size != nullptr) {
    auto const env = task.env_for(*size);
    out.work.bytes = work_model_value(task.work.bytes, env);
    out.work.flops = work_model_value(task.work.flops, env);
  }
  double kernel_ns = 0.0;
  for (auto const& row : stage1->rows) kernel_ns += row.metric(kDuration).value_or(0.0);
  if (kernel_ns > 0) {
    out.work.kernel_us_per_call = kernel_ns / 1000.0;
    out.work.median_us = kernel_ns / 1000.0;  // one profiled call, clocks as found
  }
  out.work.launches_per_call = static_cast<int>(stage1->rows.size());
  std::map<std::string, KernelActivity> activity = options.activity;
  if (stage1->mode == CandidateMode::launcher && options.evaluate_launchers && !activity.contains(out.size)) {
    record_launcher_activity(evaluator, task, candidate, activity, out);
  }
  if (auto it = activity.find(out.size); it != activity.end()) {
    add_activity_facts(it->second, out.work);  // CUPTI's call time and busy time beat ncu's serialised rows
    if (it->second.from_cupti) {
      out.notes.push_back(fmt::format(
          "launches ({}), kernel time and call time from the CUPTI kernel activity of an evaluation",
          it->second.launches));
    }
  }
  if (main1.grid) out.work.grid_blocks = main1.grid->count();
  if (main1.block) out.work.block_threads = static_cast<int>(main1.block->count());
  DeviceInfo const& device = evaluator.device();
  out.work.sm_count = device.sm_count;
  out.work.ceilings = device.ceilings;
  out.work.tensor_cores_allowed = tensor_cores_allowed(task);
  if (!task.buffers.empty()) out.work.dtype = task.buffers.front().dtype;

  out.classification = classify(out.metrics, out.work);
  if (options.second_stage) {
    std::vector<std::string> wanted = stage2_metrics(out.classification.bottleneck);
    std::erase_if(wanted, [&](std::string const& m) { return out.metrics.contains(m); });
    if (!wanted.empty()) {
      auto stage2 = run_stage(evaluator, task, candidate, options, wanted, out);
      if (!stage2) {
        out.notes.push_back("stage 2 failed: " + stage2.error().message);
      } else if (out.status == CandidateStatus::ok && !stage2->rows.empty()) {
        // The same launch order as stage 1: take the row of the same index when there is one.
        std::size_t const index = stage1->main < stage2->rows.size() ? stage1->main : stage2->main;
        for (auto const& [name, value] : stage2->rows[index].metrics) out.metrics.emplace(name, value);
      }
    }
  }
  add_disassembly_facts(stage1->artifact, stage1->symbol, out);
  out.findings = analyze(out.classification, out.metrics, out.static_facts, out.work);
  out.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace kopt
