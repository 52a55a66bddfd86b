// Nsight Compute evidence for a bench row that misses a goal: kopt's kernel and the vendor's, profiled on the
// row's size case and summarised (classification, speed-of-light numbers, findings).
#include "suite_bench/gap_evidence.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kopt/text.hpp"

namespace kopt::bench_detail {
namespace {

constexpr std::size_t kMaxFindings = 4;

BenchEvidence failed(std::string subject, std::string status, std::string message) {
  BenchEvidence e;
  e.subject = std::move(subject);
  e.status = std::move(status);
  e.message = std::move(message);
  return e;
}

BenchEvidence profile_one(TaskSpec const& task, CandidateInput const& kernel, ProfileOptions const& options,
                          std::string subject, CandidateEvaluator& evaluator) {
  auto profile = evaluator.profile(task, kernel, options);
  if (!profile) return failed(std::move(subject), "error", profile.error().message);
  return evidence_from_profile(*profile, std::move(subject));
}

std::optional<CandidateInput> vendor_baseline(TaskSpec const& task) {
  if (!task.baseline) return std::nullopt;
  auto text = read_text_file(task.baseline->path);
  if (!text) return std::nullopt;
  CandidateInput baseline;
  baseline.name = "vendor baseline";
  baseline.source = std::move(*text);
  baseline.mode = CandidateMode::launcher;
  return baseline;
}

}  // namespace

BenchEvidence evidence_from_profile(CandidateProfile const& profile, std::string subject) {
  BenchEvidence e;
  e.subject = std::move(subject);
  e.status = std::string(to_string(profile.status));
  e.message = profile.message;
  if (profile.status != CandidateStatus::ok) return e;
  e.main_kernel = profile.main_kernel;
  e.kernels = profile.kernels.size();
  e.bottleneck = std::string(to_string(profile.classification.bottleneck));
  if (profile.classification.memory_level)
    e.bottleneck += fmt::format(" ({})", to_string(*profile.classification.memory_level));
  e.summary = profile.classification.summary;
  e.headline = metric_headline(profile.metrics);
  for (std::size_t i = 0; i < profile.findings.size() && i < kMaxFindings; ++i) {
    Finding const& f = profile.findings[i];
    e.findings.push_back(fmt::format("{}: {}", f.tool, f.explanation));
  }
  return e;
}

BenchRow* gap_row(std::span<BenchRow> rows) {
  auto const largest = std::find_if(rows.begin(), rows.end(), [](BenchRow const& r) { return r.largest; });
  if (largest == rows.end() || largest->status != "ok") return nullptr;
  if (!misses_bandwidth_goal(*largest) && !misses_vendor_goal(*largest)) return nullptr;
  return &*largest;
}

void add_gap_evidence(BenchRow& row, TaskSpec const& task, CandidateInput const& kernel,
                      std::optional<KernelActivity> const& activity, BenchOptions const& options,
                      CandidateEvaluator& evaluator) {
  ProfileOptions profile;
  profile.size = row.size;
  profile.ncu = options.ncu;
  if (activity) profile.activity.emplace(row.size, *activity);
  row.evidence.push_back(profile_one(task, kernel, profile, "kopt", evaluator));
  auto baseline = vendor_baseline(task);
  if (!baseline) return;
  // The vendor's verdict and speed-of-light numbers are the comparison; its tools' findings are not ours
  // to act on, so stage 1 only, and ncu's rows only (no extra evaluation to record its launch gaps).
  profile.activity.clear();
  profile.second_stage = false;
  profile.evaluate_launchers = false;
  row.evidence.push_back(profile_one(task, *baseline, profile, "vendor", evaluator));
}

}  // namespace kopt::bench_detail
