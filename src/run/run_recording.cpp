// RunRecording: one tier of a recorded run by knob setting, and a recorded evaluation as the report an
// evaluator would have returned (what RecordedRunEvaluator replays).
#include <fmt/format.h>

#include "kopt/runs.hpp"

namespace kopt {
namespace {

KernelTiming recorded_timing(double median_us, double iqr_us) {
  KernelTiming timing;
  timing.us.count = 1;
  timing.us.median = median_us;
  timing.us.mean = median_us;
  timing.us.min = median_us;
  timing.us.max = median_us;
  timing.us.q1 = median_us - 0.5 * iqr_us;
  timing.us.q3 = median_us + 0.5 * iqr_us;
  return timing;
}

std::optional<double> recorded_number(nlohmann::json const& object, char const* field) {
  auto const it = object.find(field);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

}  // namespace

CandidateReport report_from_record(EvaluationRecord const& stored, std::string const& name,
                                   CandidateMode mode) {
  CandidateReport report;
  report.name = name;
  report.mode = mode;
  report.status = stored.status;
  report.message = stored.message;
  report.geomean_speedup = stored.geomean_speedup;
  report.ran_on = place_from_json(stored.ran_on);
  for (auto const& entry : stored.sizes) {
    if (!entry.is_object()) continue;
    SizeResult size;
    size.size = entry.value("size", "");
    size.verify_only = entry.value("verify_only", false);
    size.status = candidate_status_from_string(entry.value("status", "")).value_or(stored.status);
    size.message = entry.value("message", "");
    size.max_abs_err = recorded_number(entry, "max_abs_err").value_or(0.0);
    size.max_rel_err = recorded_number(entry, "max_rel_err").value_or(0.0);
    if (auto median = recorded_number(entry, "median_us"))
      size.candidate = recorded_timing(*median, recorded_number(entry, "iqr_us").value_or(0.0));
    if (auto reference = recorded_number(entry, "reference_us"))
      size.reference = recorded_timing(*reference, 0.0);
    size.speedup = recorded_number(entry, "speedup");
    report.sizes.push_back(std::move(size));
  }
  return report;
}

Result<RunRecording> load_run_recording(Store& store, RunId run, std::string_view tier) {
  using Knobs = std::map<std::string, std::string, std::less<>>;
  auto history = store.load_run(run);
  if (!history) return history.error();
  RunRecording recording;
  recording.origin = fmt::format("store {} run {}", store.path().string(), run.value());
  std::map<std::int64_t, Knobs> knobs_of;
  for (StoredCandidate const& candidate : history->candidates) {
    Knobs knobs;
    for (auto const& [name, value] : candidate.candidate.knobs.items())
      knobs[name] = value.is_string() ? value.get<std::string>() : value.dump();
    knobs_of[candidate.id.value()] = std::move(knobs);
  }
  for (StoredEvaluation const& stored : history->evaluations) {
    if (stored.evaluation.tier != tier) continue;
    auto const knobs = knobs_of.find(stored.candidate.value());
    if (knobs == knobs_of.end()) continue;
    if (recording.by_knobs.empty()) {
      EvaluationRecord const& e = stored.evaluation;
      recording.target = EvaluationTarget{e.device_name, e.device_uuid, e.driver, e.toolkit, ""};
    }
    recording.by_knobs[knobs->second] = stored.evaluation;  // insertion order: the newest wins
  }
  if (recording.by_knobs.empty()) {
    return make_error(ErrorCode::not_found,
                      fmt::format("{}: no {}-tier evaluations to replay", recording.origin, tier));
  }
  return recording;
}

}  // namespace kopt
