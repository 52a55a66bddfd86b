// Turns the worker's raw per-size timings into what a report shows: speedups, the work model's
// bytes and FLOPs, speed of light, % of roofline, and the implausibly-fast verdict.
#pragma once

#include <optional>
#include <vector>

#include "kopt/device.hpp"
#include "kopt/eval.hpp"
#include "kopt/task.hpp"

namespace kopt {

// Median used for comparisons: CUDA-graph replay when both sides have it and the candidate is under
// the graph threshold (launch overhead would otherwise dominate), else the event median.
double comparable_median(KernelTiming const& timing, KernelTiming const& other, double graph_below_us);

// Fills bytes, flops, sol_us, achieved rates, pct_of_sol, speedup, vs_baseline; sets status
// implausibly_fast when the candidate beats the speed-of-light bound (docs/verification.md).
void apply_size_metrics(TaskSpec const& task, SizeCase const& size, DeviceInfo const& device,
                        double graph_below_us, SizeResult& result);

double geomean(std::vector<double> const& values);

// A work-model expression (bytes, flops) evaluated for one size case; nullopt when absent or invalid.
std::optional<double> work_model_value(std::optional<Expr> const& expr, ScalarEnv const& env);

}  // namespace kopt
