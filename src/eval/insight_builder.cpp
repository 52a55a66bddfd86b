// build_roofline_insights: the cheap analysis every evaluation gets, with no profiler: classify_roofline on
// the work model, the measured median and the device ceilings, plus the tools that need only ptxas's facts
// and the work model (docs/analysis.md, "Handing findings to proposers").
#include "eval/size_metrics.hpp"
#include "eval/static_facts.hpp"
#include "kopt/eval.hpp"
#include "kopt/insight.hpp"

namespace kopt {
namespace {

SizeCase const* find_size(TaskSpec const& task, std::string const& name) {
  for (SizeCase const& size : task.sizes)
    if (size.name == name) return &size;
  return nullptr;
}

}  // namespace

std::vector<CandidateInsight> build_roofline_insights(TaskSpec const& task, CandidateReport const& report,
                                                      DeviceCeilings const& ceilings) {
  std::vector<CandidateInsight> insights;
  if (report.status != CandidateStatus::ok) return insights;
  StaticFacts const facts = static_facts_of(report.resources);
  bool const tensor = tensor_cores_allowed(task);
  for (SizeResult const& size : report.sizes) {
    if (size.verify_only || size.status != CandidateStatus::ok || !size.candidate) continue;
    double const median_us = size.candidate->us.median;
    if (!(median_us > 0.0)) continue;
    WorkFacts work;
    work.bytes = size.bytes;
    work.flops = size.flops;
    if (SizeCase const* spec = find_size(task, size.size); spec != nullptr && !work.bytes && !work.flops) {
      auto const env = task.env_for(*spec);
      work.bytes = work_model_value(task.work.bytes, env);
      work.flops = work_model_value(task.work.flops, env);
    }
    work.median_us = median_us;
    // The call's kernel activity (CUPTI) when recorded; else kernel mode launches the kernel once per call
    // and a launcher's launches are unknown.
    if (size.activity && size.activity->launches > 0) {
      work.launches_per_call = size.activity->launches;
      work.kernel_us_per_call = size.activity->kernel_us;
    } else if (report.mode == CandidateMode::kernel) {
      work.launches_per_call = 1;
    }
    work.ceilings = ceilings;
    work.tensor_cores_allowed = tensor;
    if (!task.buffers.empty()) work.dtype = task.buffers.front().dtype;

    CandidateInsight insight;
    insight.size = size.size;
    insight.source = std::string(insight_source::roofline);
    insight.classification = classify_roofline(work);
    insight.findings = analyze(insight.classification, Metrics{}, facts, work);
    insight.pct_of_sol = size.pct_of_sol;
    if (!insight.pct_of_sol) {
      double const bound_us = speed_of_light(work.bytes, work.flops, ceilings, tensor).bound_us();
      if (bound_us > 0.0) insight.pct_of_sol = 100.0 * bound_us / median_us;
    }
    insights.push_back(std::move(insight));
  }
  return insights;
}

}  // namespace kopt
