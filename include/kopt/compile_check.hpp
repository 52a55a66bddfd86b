// Compile-only checks (`kopt eval --compile-only`, `kopt task check` without a GPU): build the task's
// reference, baseline and candidates for one architecture and report what needs no GPU: compile errors,
// per-kernel resources (registers, spills, shared memory, local memory), the theoretical occupancy those
// resources allow on that architecture, and the static findings of the analysis tools. Never starts the GPU
// worker, so it works the same on a laptop, a CI runner and a GPU host (docs/cli.md, docs/compile.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/analysis.hpp"
#include "kopt/candidate_status.hpp"
#include "kopt/compile.hpp"
#include "kopt/eval.hpp"
#include "kopt/result.hpp"
#include "kopt/task.hpp"

namespace kopt {

inline constexpr std::string_view kCompileCheckSchema = "kopt.compile_check/1";
// The architecture compile-only checks build for when none is given: kopt's primary target (the H200).
inline constexpr std::string_view kCompileCheckDefaultArch = "sm_90";

struct CompileCheckOptions {
  std::optional<CandidateMode> mode;  // unset: detected from each source, as `kopt eval` does
  // arch empty: kCompileCheckDefaultArch (no GPU is consulted). extra_flags apply to candidates only.
  CompileOptions compile;
  std::vector<std::string> sizes;  // size cases whose launch geometry is checked (empty: all)
};

// How many blocks of one kernel fit on one SM, and why no more (the CUDA occupancy calculator's rules).
struct OccupancyEstimate {
  int block_threads = 0;
  std::int64_t dynamic_shared_bytes = 0;
  int warps_per_block = 0;
  int blocks_per_sm = 0;  // the smallest of the limits below; 0: the block cannot launch at all
  int warps_per_sm = 0;   // blocks_per_sm x warps_per_block
  int max_warps_per_sm = 0;
  double occupancy_pct = 0.0;  // warps_per_sm / max_warps_per_sm x 100
  // Blocks per SM each resource allows: "registers", "shared_mem", "warps", "blocks" (as ncu's
  // launch__occupancy_limit_*); the limiter is the smallest.
  std::map<std::string, int> limits;
  std::vector<std::string> limited_by;  // every limit equal to blocks_per_sm, in the order above
  std::string problem;                  // why the block cannot launch (blocks_per_sm == 0), else empty
};

// One launch geometry of a kernel-mode candidate: the task's [launch] (with the candidate's annotation)
// evaluated on the size cases listed.
struct LaunchGeometryCheck {
  std::vector<std::string> sizes;  // the size cases that share this block size and dynamic shared memory
  std::optional<OccupancyEstimate> occupancy;  // unset: the architecture's limits are not known to kopt
  std::string problem;                         // the geometry could not be evaluated (and why)
};

struct KernelCheck {
  std::string name;  // the kernel's symbol; "(all kernels)" for a launcher's aggregate
  // Launcher mode: ptxas's report is the largest value of each field over every kernel of the shared
  // object (docs/compile.md, "Resource usage"), not one kernel's.
  bool aggregate = false;
  ResourceUsage resources;                    // -1: not reported
  std::vector<LaunchGeometryCheck> launches;  // kernel mode: one per distinct geometry
  // Launcher mode (the block size is chosen in host code, unknown here): the most warps per SM that the
  // register count alone allows, as a percentage of the SM's warps. Unset when unknown.
  std::optional<double> register_bound_occupancy_pct;
};

struct CompileCheckEntry {
  std::string role;  // "reference", "baseline" or "candidate"
  std::string name;
  std::filesystem::path path;
  CandidateMode mode = CandidateMode::kernel;
  CandidateStatus status = CandidateStatus::ok;  // ok, compile_error (or load_error: no launch geometry)
  std::string message;                           // the first failure, for people
  std::string diagnostics;                       // the compiler's messages (errors, or warnings when ok)
  std::string arch;                              // what it was built for (a `// kopt:arch` may add "a")
  bool cache_hit = false;
  double compile_ms = 0.0;
  std::vector<KernelCheck> kernels;
  std::vector<Finding> findings;   // static findings, highest severity first
  std::vector<std::string> notes;  // what could not be checked, and why
};

struct CompileCheckReport {
  std::string task;
  std::filesystem::path task_dir;
  std::string arch;         // the target architecture
  std::string arch_source;  // "--arch" or why the default was taken
  std::string toolkit;
  std::vector<CompileCheckEntry> trusted;  // the reference, then the baseline if the task has one
  std::vector<CompileCheckEntry> candidates;
  std::vector<std::string> checked;      // what this run checked ("spec", "compile", ...)
  std::vector<std::string> not_checked;  // what needs a GPU and was not checked
  double wall_ms = 0.0;
};

// Builds the task's reference and baseline (without the extra flags) and every candidate for the target
// architecture, on all cores, through the compile cache. Error: kopt could not compile at all (toolchain,
// cache: toolchain_error/not_found/io_error) or the task's own code does not compile (invalid_spec, with
// the compiler's diagnostics: the task is broken). A candidate's failures are statuses in its entry.
Result<CompileCheckReport> check_compiles(TaskSpec const& task,
                                          std::vector<CandidateSource> const& candidates,
                                          CompileCheckOptions const& options);

// The occupancy of `block_threads`-thread blocks with `dynamic_shared_bytes` of dynamic shared memory and
// these resources on `arch` ("sm_90", "sm_90a", ...); nullopt when kopt does not know the architecture's
// limits. Unknown resources (-1) count as zero.
std::optional<OccupancyEstimate> estimate_occupancy(std::string_view arch, ResourceUsage const& resources,
                                                    int block_threads, std::int64_t dynamic_shared_bytes);
// The most warps per SM the registers alone allow on `arch`, as % of the SM's warps; nullopt when unknown.
std::optional<double> register_bound_occupancy_pct(std::string_view arch, int registers_per_thread);

// The static findings of one kernel: the analysis tools that need no GPU (register_spills from ptxas's
// facts; occupancy from the estimate above), highest severity first. `source` is the kernel's text: a
// kernel whose occupancy registers limit and that has no __launch_bounds__ gets that said in the finding.
std::vector<Finding> static_findings(KernelCheck const& kernel, std::string const& source);

// ---- output --------------------------------------------------------------------------------------------
// kopt.compile_check/1 (docs/cli.md, "JSON documents").
nlohmann::json to_json(CompileCheckReport const& report);
// For people: the target, then per entry its status, resources per kernel, occupancy and findings.
std::string render_compile_check(CompileCheckReport const& report, bool verbose = false);
// ok when every candidate compiled (and there is at least one): the exit-code rule of --compile-only.
bool all_candidates_compiled(CompileCheckReport const& report) noexcept;

}  // namespace kopt
