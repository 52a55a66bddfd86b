// Launch overhead and many small launches. Always on (WorkFacts: launches per call, summed kernel time per
// call from CUPTI activity records, measured call time). Triggers: gaps of at least 20% of the call with
// more than one launch, gaps of at least 50% (launch-overhead-bound), or, without kernel durations, two or
// more launches averaging under 5 us (launch_facts.hpp has the sources).
#include <fmt/format.h>

#include <string>

#include "analysis/launch_facts.hpp"
#include "analysis/tool_support.hpp"

namespace kopt::analysis {
namespace launch_overhead {

constexpr double kManyLaunches = 10.0;  // ours: ten or more tiny launches per call

std::optional<Finding> examine(Metrics const& /*metrics*/, StaticFacts const& /*facts*/,
                               WorkFacts const& work) {
  LaunchOverhead const launch = assess_launch_overhead(work);
  if (!launch.notable) return std::nullopt;
  Finding finding;
  finding.tool = "launch_overhead";
  note(finding.evidence, "work.launches_per_call", launch.launches);
  note(finding.evidence, "work.median_us", known(work.median_us));
  note(finding.evidence, "work.kernel_us_per_call", known(work.kernel_us_per_call));
  note(finding.evidence, "derived.mean_kernel_us", launch.mean_kernel_us);
  note(finding.evidence, "derived.launch_idle_fraction", launch.idle_fraction);

  std::string text;
  if (launch.idle_fraction) {
    finding.severity = launch.bound ? Severity::high : Severity::medium;
    text = fmt::format("{:.0f}% of the {:.1f} us call is gaps between kernels", *launch.idle_fraction * 100.0,
                       *work.median_us);
    if (launch.launches) text += fmt::format(" across {:.0f} launches", *launch.launches);
    if (launch.mean_kernel_us) text += fmt::format(" (kernels average {:.1f} us)", *launch.mean_kernel_us);
  } else {
    finding.severity = *launch.launches >= kManyLaunches ? Severity::high : Severity::medium;
    text = fmt::format(
        "{:.0f} launches per call average {:.1f} us each, under the {:.0f} us a launch roughly costs",
        *launch.launches, *launch.mean_kernel_us, tiny_kernel_us);
  }
  finding.explanation = "Launch overhead: " + text + "; the GPU waits for the CPU between kernels.";
  finding.strategies = {std::string(strategy::fuse_launches), std::string(strategy::use_cuda_graphs)};
  return finding;
}

}  // namespace launch_overhead

AnalysisTool make_launch_overhead_tool() {
  return AnalysisTool{
      .name = "launch_overhead",
      .description = "Calls dominated by launch gaps or made of many tiny kernels (launcher mode).",
      .always = true,
      .triggers = {},
      .metrics = {},
      .examine = &launch_overhead::examine,
  };
}

}  // namespace kopt::analysis
