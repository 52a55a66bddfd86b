// check_compiles: the task's reference, baseline and candidates built for one architecture, with their
// resources, occupancy and static findings, and no GPU worker (include/kopt/compile_check.hpp).
#include "kopt/compile_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>

#include "eval/artifact_requests.hpp"
#include "eval/evaluator_impl.hpp"
#include "kopt/elapsed.hpp"

namespace kopt {
namespace {

using Clock = std::chrono::steady_clock;

struct PlannedEntry {
  CompileCheckEntry entry;
  CandidatePlan plan;
};

// The task's own launcher (reference or baseline), planned exactly as build_trusted builds it, so that
// both share the compile cache.
Result<PlannedEntry> plan_trusted(TaskSpec const& task, SourceSpec const& spec, std::string role) {
  CandidateSource source;
  source.name = spec.path.filename().string();
  source.path = spec.path;
  PlannedEntry planned;
  planned.plan = plan_candidate(task, source, CandidateMode::launcher);
  if (!planned.plan.request) {
    return make_error(ErrorCode::invalid_spec,
                      fmt::format("the task's {} ({}): {}", role, spec.path.string(), planned.plan.failure));
  }
  planned.plan.request->libraries = spec.libraries;
  planned.entry.role = std::move(role);
  planned.entry.name = planned.plan.name;
  planned.entry.path = spec.path;
  planned.entry.mode = CandidateMode::launcher;
  return planned;
}

std::vector<SizeCase const*> checked_sizes(TaskSpec const& task, std::vector<std::string> const& names) {
  std::vector<SizeCase const*> sizes;
  for (SizeCase const& size : task.sizes) {
    if (names.empty() || std::find(names.begin(), names.end(), size.name) != names.end())
      sizes.push_back(&size);
  }
  return sizes;
}

Result<std::int64_t> product(std::vector<Expr> const& dims, ScalarEnv const& env) {
  std::int64_t value = 1;
  for (Expr const& dim : dims) {
    auto const extent = dim.evaluate(env);
    if (!extent) return extent.error();
    value *= *extent;
  }
  return value;
}

// The kernel-mode launch geometry on each size case, grouped by (block threads, dynamic shared bytes).
std::vector<LaunchGeometryCheck> launch_geometries(TaskSpec const& task, LaunchSpec const& launch,
                                                   std::vector<std::string> const& size_names,
                                                   std::string const& arch, ResourceUsage const& resources) {
  std::vector<LaunchGeometryCheck> groups;
  std::vector<std::pair<std::int64_t, std::int64_t>> keys;
  for (SizeCase const* size : checked_sizes(task, size_names)) {
    ScalarEnv const env = task.env_for(*size);
    auto const block = product(launch.block, env);
    auto const shared = launch.shared_bytes.evaluate(env);
    if (!block || !shared) {
      LaunchGeometryCheck failed;
      failed.sizes = {size->name};
      failed.problem = fmt::format("the launch geometry does not evaluate on size '{}': {}", size->name,
                                   (!block ? block.error() : shared.error()).message);
      groups.push_back(std::move(failed));
      keys.emplace_back(-1, -1);
      continue;
    }
    std::pair<std::int64_t, std::int64_t> const key{*block, *shared};
    auto const same = std::find(keys.begin(), keys.end(), key);
    if (same != keys.end()) {
      groups[static_cast<std::size_t>(same - keys.begin())].sizes.push_back(size->name);
      continue;
    }
    LaunchGeometryCheck group;
    group.sizes = {size->name};
    if (*block > std::numeric_limits<int>::max()) {
      group.problem = fmt::format("a block of {} threads on size '{}'", *block, size->name);
    } else {
      group.occupancy = estimate_occupancy(arch, resources, static_cast<int>(*block), *shared);
    }
    groups.push_back(std::move(group));
    keys.push_back(key);
  }
  return groups;
}

// Fills `entry` from its compile: status and diagnostics, the kernels' resources and occupancy, findings.
void describe_outcome(TaskSpec const& task, CompileCheckOptions const& options, CandidatePlan const& plan,
                      CompileOutcome const& outcome, CompileCheckEntry& entry) {
  entry.cache_hit = outcome.cache_hit;
  entry.compile_ms = outcome.compile_ms;
  entry.diagnostics = outcome.diagnostics;
  if (!outcome.ok) {
    entry.status = CandidateStatus::compile_error;
    entry.message = compile_failure_message(outcome.diagnostics);
    return;
  }
  Artifact const& artifact = outcome.artifact;
  entry.arch = artifact.arch;
  ResourceUsage const& resources = artifact.resources;
  if (resources.registers < 0) {
    entry.notes.emplace_back(
        plan.mode == CandidateMode::launcher
            ? "ptxas reported no kernels: the launcher has no kernels of its own (e.g. it "
              "only calls a vendor library)"
            : "ptxas reported no resource usage: registers, spills and occupancy are unknown");
    return;
  }
  KernelCheck kernel;
  kernel.resources = resources;
  if (plan.mode == CandidateMode::kernel) {
    kernel.name = artifact.symbol;
    if (plan.launch) {
      kernel.launches = launch_geometries(task, *plan.launch, options.sizes, artifact.arch, resources);
      for (LaunchGeometryCheck const& launch : kernel.launches) {
        if (launch.occupancy || !launch.problem.empty()) continue;
        entry.notes.push_back(fmt::format("kopt does not know the occupancy limits of {}", artifact.arch));
        break;
      }
    }
  } else {
    kernel.name = "(all kernels)";
    kernel.aggregate = true;
    kernel.register_bound_occupancy_pct = register_bound_occupancy_pct(artifact.arch, resources.registers);
    entry.notes.emplace_back(
        "launcher mode: ptxas's figures are the largest of each over the launcher's kernels, and the block "
        "size is set in host code, so occupancy is bounded by the registers alone");
  }
  entry.findings = static_findings(kernel, plan.request ? plan.request->source : std::string());
  entry.kernels.push_back(std::move(kernel));
}

}  // namespace

bool all_candidates_compiled(CompileCheckReport const& report) noexcept {
  if (report.candidates.empty()) return false;
  return std::all_of(report.candidates.begin(), report.candidates.end(),
                     [](CompileCheckEntry const& entry) { return entry.status == CandidateStatus::ok; });
}

Result<CompileCheckReport> check_compiles(TaskSpec const& task,
                                          std::vector<CandidateSource> const& candidates,
                                          CompileCheckOptions const& options) {
  auto const start = Clock::now();
  CompileCheckReport report;
  report.task = task.name;
  report.task_dir = task.dir;
  CompileOptions compile = options.compile;
  if (compile.arch.empty()) {
    compile.arch = kCompileCheckDefaultArch;
    report.arch_source = "kopt's primary target; compile-only never asks the GPU, --arch picks another";
  } else {
    report.arch_source = "--arch";
  }
  report.arch = compile.arch;
  // Flags meant for candidates never change the ground truth (as in Evaluator::create).
  CompileOptions trusted_options = compile;
  trusted_options.extra_flags.clear();
  auto trusted_compiler = Compiler::create(trusted_options);
  if (!trusted_compiler) return trusted_compiler.error();
  auto compiler = Compiler::create(compile);
  if (!compiler) return compiler.error();
  report.toolkit = compiler->toolkit_version();

  std::vector<PlannedEntry> trusted;
  if (!task.reference.is_torch()) {  // a PyTorch reference is not compiled (docs/pytorch.md)
    auto reference = plan_trusted(task, task.reference, "reference");
    if (!reference) return reference.error();
    trusted.push_back(std::move(*reference));
  }
  if (task.baseline) {
    auto baseline = plan_trusted(task, *task.baseline, "baseline");
    if (!baseline) return baseline.error();
    trusted.push_back(std::move(*baseline));
  }
  std::vector<PlannedEntry> planned;
  for (CandidateSource const& candidate : candidates) {
    PlannedEntry item;
    item.plan = plan_candidate(task, candidate, options.mode);
    item.entry.role = "candidate";
    item.entry.name = item.plan.name;
    item.entry.path = item.plan.path;
    item.entry.mode = item.plan.mode;
    item.entry.arch = compile.arch;
    planned.push_back(std::move(item));
  }

  std::vector<CompileRequest> trusted_requests;
  trusted_requests.reserve(trusted.size());
  for (auto const& item : trusted) trusted_requests.push_back(*item.plan.request);
  auto trusted_outcomes = trusted_compiler->compile_all(trusted_requests);
  for (std::size_t i = 0; i < trusted.size(); ++i) {
    if (!trusted_outcomes[i]) return trusted_outcomes[i].error();
    CompileOutcome const& outcome = *trusted_outcomes[i];
    if (!outcome.ok) {
      return make_error(ErrorCode::invalid_spec,
                        fmt::format("the task's {} ({}) does not compile for {}:\n{}", trusted[i].entry.role,
                                    trusted[i].entry.path.string(), compile.arch, outcome.diagnostics));
    }
    trusted[i].entry.arch = compile.arch;
    describe_outcome(task, options, trusted[i].plan, outcome, trusted[i].entry);
    report.trusted.push_back(std::move(trusted[i].entry));
  }

  std::vector<CompileRequest> requests;
  for (auto const& item : planned) {
    if (item.plan.request) requests.push_back(*item.plan.request);
  }
  auto outcomes = compiler->compile_all(requests);
  std::size_t next = 0;
  for (auto& item : planned) {
    if (!item.plan.request) {
      item.entry.status = item.plan.failure_status;
      item.entry.message = item.plan.failure;
    } else {
      auto& outcome = outcomes[next++];
      if (!outcome) return outcome.error();
      describe_outcome(task, options, item.plan, *outcome, item.entry);
    }
    report.candidates.push_back(std::move(item.entry));
  }
  report.wall_ms = ms_since(start);
  return report;
}

}  // namespace kopt
