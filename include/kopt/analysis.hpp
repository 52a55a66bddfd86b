// Bottleneck analysis: why a kernel is slow, in numbers and plain language (docs/analysis.md).
// Pure CPU logic on plain values: Nsight Compute metrics (parsed elsewhere, src/profile), static facts
// from ptxas and the SASS, and the task's work model. Stage 1 classifies the bottleneck; stage 2 runs
// the micro-profiling tools that the class triggers, each returning a Finding with the strategies likely
// to help.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/dtype.hpp"
#include "kopt/measure.hpp"

namespace kopt {

// Nsight Compute metric name -> value in base units, exactly the raw-page names
// (e.g. "sm__throughput.avg.pct_of_peak_sustained_elapsed"). Missing metrics are simply absent.
using Metrics = std::map<std::string, double, std::less<>>;
// The numbers a classification or finding rests on: metric names as above, "static.*" for StaticFacts,
// "work.*" for WorkFacts and "derived.*" for values computed here.
using Evidence = std::map<std::string, double, std::less<>>;

// What ptxas and the SASS say about the kernel, with no GPU. Every field is optional (unknown).
struct StaticFacts {
  // ptxas -v
  std::optional<int> registers_per_thread;
  std::optional<std::int64_t> spill_store_bytes;
  std::optional<std::int64_t> spill_load_bytes;
  std::optional<std::int64_t> static_shared_bytes;
  std::optional<std::int64_t> stack_bytes;  // stack frame: spills or dynamically indexed local arrays
  // SASS instruction counts (static, in the kernel's code)
  std::optional<int> global_loads_128;  // LDG.E.128
  std::optional<int> global_loads_64;   // LDG.E.64
  std::optional<int> global_loads_32;   // LDG.E (and narrower)
  std::optional<int> global_stores_128;
  std::optional<int> global_stores_64;
  std::optional<int> global_stores_32;
  std::optional<int> tensor_instructions;  // HMMA, HGMMA, QGMMA, IMMA, ...
  std::optional<int> local_loads;          // LDL
  std::optional<int> local_stores;         // STL
  std::optional<int> shared_loads;         // LDS, LDSM
  std::optional<int> shared_stores;        // STS
  std::optional<int> atomics;              // ATOM, ATOMG, RED, ATOMS
  std::optional<int> barriers;             // BAR
};

// What the task and the timing harness know about the profiled size. Every field is optional.
struct WorkFacts {
  std::optional<double> bytes;               // work model: minimum bytes moved per call
  std::optional<double> flops;               // work model: floating-point operations per call
  std::optional<double> median_us;           // measured median time of one call
  std::optional<int> launches_per_call;      // kernels launched per call (launcher mode; 1 in kernel mode)
  std::optional<double> kernel_us_per_call;  // summed kernel durations within one call (CUPTI activity)
  std::optional<std::int64_t> grid_blocks;   // blocks in the grid (of the main kernel)
  std::optional<int> block_threads;          // threads per block
  std::optional<int> sm_count;               // SMs on the device
  DeviceCeilings ceilings;                   // 0 = unknown
  bool tensor_cores_allowed = false;         // the task's tolerance permits tensor-core math
  std::optional<DType> dtype;                // the task's main element type
};

enum class BottleneckClass {
  memory_bound,
  compute_bound,
  latency_bound,
  small_grid,
  launch_overhead_bound,
  balanced
};
enum class MemoryLevel { dram, l2, l1 };
// What a classification was computed from: profiler metrics, the work model only, or nothing usable.
enum class ClassificationBasis { metrics, roofline, none };

std::string_view to_string(BottleneckClass value) noexcept;
std::string_view to_string(MemoryLevel value) noexcept;
std::string_view to_string(ClassificationBasis value) noexcept;
std::optional<BottleneckClass> bottleneck_class_from_string(std::string_view text) noexcept;

struct Classification {
  BottleneckClass bottleneck = BottleneckClass::balanced;
  std::optional<MemoryLevel> memory_level;  // for memory_bound, when the breakdown is known
  ClassificationBasis basis = ClassificationBasis::none;
  Evidence evidence;
  std::string summary;  // one plain-language sentence with the numbers
};

// Stage 1: Nsight Compute's SOLBottleneck rule (80 / 60 / waves < 1 / difference 10) plus
// launch-overhead-bound (from WorkFacts) and tail/small grid. Falls back to classify_roofline when the
// speed-of-light metrics are missing.
Classification classify(Metrics const& metrics, WorkFacts const& work);
// Cheap classification without a profiler: % of speed of light on memory and compute from the work
// model, the measured time and the device ceilings.
Classification classify_roofline(WorkFacts const& work);

// ---- strategies -----------------------------------------------------------------------------------
// Names of optimisation strategies a finding can suggest; the strategy library and LLM prompts use them.
namespace strategy {
inline constexpr std::string_view coalesce_global_access = "coalesce_global_access";
inline constexpr std::string_view stage_through_shared_memory = "stage_through_shared_memory";
inline constexpr std::string_view vectorize_global_access = "vectorize_global_access";
inline constexpr std::string_view vectorize_shared_access = "vectorize_shared_access";
inline constexpr std::string_view pad_shared_memory = "pad_shared_memory";
inline constexpr std::string_view swizzle_shared_memory = "swizzle_shared_memory";
inline constexpr std::string_view reduce_register_pressure = "reduce_register_pressure";
inline constexpr std::string_view reduce_shared_memory = "reduce_shared_memory";
inline constexpr std::string_view tune_block_size = "tune_block_size";
inline constexpr std::string_view avoid_local_arrays = "avoid_local_arrays";
inline constexpr std::string_view reduce_divergence = "reduce_divergence";
inline constexpr std::string_view increase_parallelism = "increase_parallelism";
inline constexpr std::string_view balance_workload = "balance_workload";
inline constexpr std::string_view use_tensor_cores = "use_tensor_cores";
inline constexpr std::string_view increase_ilp = "increase_ilp";
inline constexpr std::string_view use_async_copy = "use_async_copy";
inline constexpr std::string_view reduce_instruction_count = "reduce_instruction_count";
inline constexpr std::string_view reduce_synchronization = "reduce_synchronization";
inline constexpr std::string_view use_warp_shuffle = "use_warp_shuffle";
inline constexpr std::string_view privatize_atomics = "privatize_atomics";
inline constexpr std::string_view fuse_launches = "fuse_launches";
inline constexpr std::string_view use_cuda_graphs = "use_cuda_graphs";
}  // namespace strategy

struct StrategyInfo {
  std::string_view name;
  std::string_view description;  // one sentence, usable in a prompt
};
// Every strategy name above, once, with its description.
std::span<StrategyInfo const> strategy_catalog() noexcept;
StrategyInfo const* find_strategy(std::string_view name) noexcept;

// ---- findings and tools ---------------------------------------------------------------------------
enum class Severity { info, low, medium, high };
std::string_view to_string(Severity value) noexcept;

struct Finding {
  std::string tool;
  Severity severity = Severity::info;
  Evidence evidence;
  std::string explanation;              // plain language, with the numbers
  std::vector<std::string> strategies;  // names from strategy_catalog(), most promising first
};

using ExamineFn = std::optional<Finding> (*)(Metrics const&, StaticFacts const&, WorkFacts const&);

// One micro-profiling tool. Tools live in src/analysis/tools/<name>.cpp and are listed once in
// src/analysis/tool_registry.cpp.
struct AnalysisTool {
  std::string_view name;
  std::string_view description;
  bool always = false;                    // runs whatever the class (static or work-model facts)
  std::vector<BottleneckClass> triggers;  // classes that trigger it when not `always`
  std::vector<std::string_view> metrics;  // ncu metrics it reads (collected in stage 2)
  ExamineFn examine = nullptr;            // nullopt: nothing to report (or not enough facts)

  bool triggered_by(BottleneckClass bottleneck) const noexcept;
};

// The registry: every tool exactly once, in a fixed order.
std::span<AnalysisTool const> analysis_tools();
AnalysisTool const* find_analysis_tool(std::string_view name);

// Metrics classify() reads (stage 1), and the union of the metrics of the tools a class triggers
// (stage 2); both sorted and without duplicates.
std::vector<std::string> stage1_metrics();
std::vector<std::string> stage2_metrics(BottleneckClass bottleneck);

// Runs the tools triggered by the class (and the always-on ones); findings sorted by severity, highest
// first, ties in registry order.
std::vector<Finding> analyze(Classification const& classification, Metrics const& metrics,
                             StaticFacts const& facts, WorkFacts const& work);

// The few numbers a summary of a profile quotes (Nsight Compute's speed-of-light section), from stage 1's
// metrics; each is unset when it was not collected.
struct MetricHeadline {
  std::optional<double> duration_us;             // gpu__time_duration
  std::optional<double> dram_pct;                // DRAM throughput, % of peak
  std::optional<double> memory_pct;              // the busiest memory unit, % of peak
  std::optional<double> l2_pct;                  // L2 throughput, % of peak
  std::optional<double> sm_pct;                  // SM throughput, % of peak
  std::optional<double> achieved_occupancy_pct;  // active warps, % of the SM's maximum
  std::optional<double> dram_bytes;              // read + written
};
MetricHeadline metric_headline(Metrics const& metrics);

}  // namespace kopt
