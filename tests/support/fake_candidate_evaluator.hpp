// For tests: a CandidateEvaluator that never touches a GPU. It answers each candidate from a function of
// its knob values and counts what it was asked (evaluations, confirms, energy, profiles, trusted builds).
// Linked by the test executables as kopt_test_support; not part of the installed headers.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kopt/optimize.hpp"

namespace kopt {

// What the fake evaluator returns for a configuration: a status and, for ok, per-size medians.
struct FakeResult {
  CandidateStatus status = CandidateStatus::ok;
  std::string message;
  std::vector<double> candidate_us;  // one per timed size case
  std::vector<double> reference_us;  // same length
  ResourceUsage resources;           // what ptxas would report (the cheap insights read spills from it)
  // Joules per call of the candidate and of the reference on the largest timed size case; without
  // them measure_energy answers as a machine without NVML does (not_found).
  std::optional<double> energy_j;
  std::optional<double> reference_energy_j;
  std::vector<double> baseline_us;  // the vendor baseline per timed size case (empty: none)
  PhaseTimes phases;                // what the report says the evaluation's phases took
};
using FakeFunction = std::function<FakeResult(std::map<std::string, std::string, std::less<>> const& knobs)>;

// Answers from a function of the knob values, counts its calls.
class FakeCandidateEvaluator final : public CandidateEvaluator {
 public:
  explicit FakeCandidateEvaluator(FakeFunction function, EvaluationTarget target = fake_target());
  EvaluationTarget target() const override { return target_; }
  Result<std::vector<CandidateReport>> evaluate(TaskSpec const& task,
                                                std::vector<CandidateInput> const& candidates,
                                                TimingTier tier) override;
  std::size_t calls() const noexcept { return calls_; }  // candidates evaluated
  std::size_t confirm_calls() const noexcept { return confirm_calls_; }
  void prepare(TaskSpec const& task) override { prepared_.push_back(task.dir); }
  // The folders of the tasks handed to prepare(), in order.
  std::vector<std::filesystem::path> const& prepared() const noexcept { return prepared_; }
  // build_trusted_code answers `failure` when set (a reference that does not compile), else Ok; counted.
  void set_trusted_build_failure(std::optional<Error> failure) { trusted_failure_ = std::move(failure); }
  Status build_trusted_code(TaskSpec const& task) override;
  std::size_t trusted_builds() const noexcept { return trusted_builds_; }
  // Energy from FakeResult::energy_j (the same for every trial, spread 2 %); counts its calls.
  Result<EnergyReport> measure_energy(TaskSpec const& task, CandidateInput const& candidate,
                                      EnergyOptions const& options) override;
  std::size_t energy_calls() const noexcept { return energy_calls_; }
  // Profiles from `profiler` (unset: not_found, as a machine without Nsight Compute); counts its calls.
  using FakeProfiler = std::function<CandidateProfile(TaskSpec const&, CandidateInput const&)>;
  void set_profiler(FakeProfiler profiler) { profiler_ = std::move(profiler); }
  Result<CandidateProfile> profile(TaskSpec const& task, CandidateInput const& candidate,
                                   ProfileOptions const& options) override;
  std::vector<std::string> const& profiled() const noexcept { return profiled_; }  // candidate names
  std::size_t reference_energy_calls() const noexcept { return reference_energy_calls_; }
  static EvaluationTarget fake_target();
  // A verdict from the candidate's text, over the function's status when it gives one (a binding probe's
  // wrong adapter, say): the report carries that status and the message "fake verdict".
  using SourceVerdict = std::function<std::optional<CandidateStatus>(CandidateInput const&)>;
  void set_source_verdict(SourceVerdict verdict) { source_verdict_ = std::move(verdict); }

 private:
  FakeFunction function_;
  SourceVerdict source_verdict_;
  EvaluationTarget target_;
  std::size_t calls_ = 0;
  std::size_t confirm_calls_ = 0;
  std::size_t energy_calls_ = 0;
  std::size_t reference_energy_calls_ = 0;
  std::vector<std::filesystem::path> prepared_;
  std::optional<Error> trusted_failure_;
  std::size_t trusted_builds_ = 0;
  FakeProfiler profiler_;
  std::vector<std::string> profiled_;
};

}  // namespace kopt
