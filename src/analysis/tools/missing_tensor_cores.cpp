// Missing tensor cores. Always on (work model + SASS). Triggers when the task allows tensor cores, the
// work model's arithmetic intensity (FLOP per byte) is above the FP32 ridge (peak FLOP/s / DRAM bytes/s;
// 13.9 FLOP/B on the H200, profiling.md §2.1), and the kernel has no tensor-core instructions (no
// HMMA/HGMMA/... in the SASS, or, without SASS, zero tensor-pipe instructions in the metrics).
#include <fmt/format.h>

#include <string>

#include "analysis/tool_support.hpp"
#include "kopt/metric_names.hpp"

namespace kopt::analysis {
namespace missing_tensor_cores {

// Measured on the H200 (profiling.md §2.1): 66.9 TFLOP/s FP32 over 4.81 TB/s. Used when the device
// ceilings are unknown.
constexpr double kDefaultFp32Ridge = 13.9;
constexpr double kHighRidgeMultiple = 2.0;  // ours: well past the ridge, compute dominates clearly

// Whether the kernel uses tensor cores: SASS first, then the tensor-pipe metrics; nullopt if unknown.
std::optional<bool> uses_tensor_cores(Metrics const& m, StaticFacts const& facts) {
  if (facts.tensor_instructions) return *facts.tensor_instructions > 0;
  std::optional<double> const instructions =
      sum_known(lookup(m, metric::tensor_gmma_instructions), lookup(m, metric::tensor_hmma_instructions));
  if (instructions) return *instructions > 0.0;
  if (std::optional<double> const active = lookup(m, metric::tensor_pipe_active)) return *active > 0.0;
  return std::nullopt;
}

std::optional<Finding> examine(Metrics const& m, StaticFacts const& facts, WorkFacts const& work) {
  if (!work.tensor_cores_allowed) return std::nullopt;
  std::optional<double> const intensity = ratio(known(work.flops), known(work.bytes));
  if (!intensity) return std::nullopt;
  std::optional<bool> const tensor = uses_tensor_cores(m, facts);
  if (!tensor || *tensor) return std::nullopt;
  double ridge = kDefaultFp32Ridge;
  if (work.ceilings.fp32_flops_per_s > 0.0 && work.ceilings.dram_bytes_per_s > 0.0)
    ridge = work.ceilings.fp32_flops_per_s / work.ceilings.dram_bytes_per_s;
  if (*intensity <= ridge) return std::nullopt;

  Finding finding;
  finding.tool = "missing_tensor_cores";
  finding.severity = *intensity >= kHighRidgeMultiple * ridge ? Severity::high : Severity::medium;
  note(finding.evidence, "derived.arithmetic_intensity", intensity);
  note(finding.evidence, "derived.fp32_ridge", ridge);
  note(finding.evidence, "static.tensor_instructions", known(facts.tensor_instructions));
  note(finding.evidence, metric::fma_pipe_active, lookup(m, metric::fma_pipe_active));
  note(finding.evidence, metric::tensor_pipe_active, lookup(m, metric::tensor_pipe_active));
  finding.explanation = fmt::format(
      "Missing tensor cores: the work model does {:.1f} FLOP per byte, above the FP32 ridge of {:.1f} "
      "FLOP/B, "
      "so the kernel should be compute-bound, yet it issues no tensor-core instructions.",
      *intensity, ridge);
  if (work.ceilings.tensor_flops_per_s > 0.0 && work.ceilings.fp32_flops_per_s > 0.0)
    finding.explanation += fmt::format(" Tensor cores on this GPU offer {:.1f}x the FP32 FMA peak.",
                                       work.ceilings.tensor_flops_per_s / work.ceilings.fp32_flops_per_s);
  finding.strategies = {std::string(strategy::use_tensor_cores)};
  return finding;
}

}  // namespace missing_tensor_cores

AnalysisTool make_missing_tensor_cores_tool() {
  return AnalysisTool{
      .name = "missing_tensor_cores",
      .description = "High arithmetic intensity computed without tensor cores where the task allows them.",
      .always = true,
      .triggers = {},
      .metrics = {metric::tensor_pipe_active, metric::tensor_gmma_instructions,
                  metric::tensor_hmma_instructions, metric::fma_pipe_active},
      .examine = &missing_tensor_cores::examine,
  };
}

}  // namespace kopt::analysis
