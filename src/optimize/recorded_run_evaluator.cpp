// RecordedRunEvaluator: answers every candidate with what a recorded run measured for its knobs.
#include <fmt/format.h>

#include "kopt/optimize.hpp"
#include "kopt/runs.hpp"

namespace kopt {

struct RecordedRunEvaluator::Recording {
  RunRecording run;
};

Result<std::unique_ptr<RecordedRunEvaluator>> RecordedRunEvaluator::create(Store& store, RunId run,
                                                                           std::string_view tier) {
  auto loaded = load_run_recording(store, run, tier);
  if (!loaded) return loaded.error();
  auto recording = std::make_unique<Recording>(Recording{std::move(*loaded)});
  return std::unique_ptr<RecordedRunEvaluator>(new RecordedRunEvaluator(std::move(recording)));
}

RecordedRunEvaluator::RecordedRunEvaluator(std::unique_ptr<Recording> recording)
    : recording_(std::move(recording)) {}
RecordedRunEvaluator::~RecordedRunEvaluator() = default;

EvaluationTarget RecordedRunEvaluator::target() const {
  return recording_->run.target;
}

std::size_t RecordedRunEvaluator::configurations() const noexcept {
  return recording_->run.by_knobs.size();
}

Result<std::vector<CandidateReport>> RecordedRunEvaluator::evaluate(
    TaskSpec const& /*task*/, std::vector<CandidateInput> const& candidates, TimingTier /*tier*/) {
  std::vector<CandidateReport> reports;
  for (CandidateInput const& candidate : candidates) {
    auto const it = recording_->run.by_knobs.find(candidate.knobs);
    if (it == recording_->run.by_knobs.end()) {
      return make_error(ErrorCode::not_found,
                        fmt::format("{}: configuration {} was not recorded (expected a run of the same "
                                    "tuning space that evaluated every valid configuration)",
                                    recording_->run.origin, candidate.name));
    }
    ++calls_;
    reports.push_back(report_from_record(it->second, candidate.name, candidate.mode));
  }
  return reports;
}

}  // namespace kopt
