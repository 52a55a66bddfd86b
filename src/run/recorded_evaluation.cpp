// From an evaluator's report to the recorded form, and from that to what a search sees.
#include <cmath>

#include "kopt/eval_json.hpp"
#include "kopt/run_log.hpp"

namespace kopt {

nlohmann::json place_json(EvaluationPlace const& place) {
  return json_doc::encode(place);
}

std::optional<EvaluationPlace> place_from_json(nlohmann::json const& json) {
  std::string error;
  json_doc::JsonCursor const cursor(json, "ran_on", &error);
  auto place = json_doc::decode_place(cursor);
  return error.empty() ? place : std::nullopt;
}

RecordedEvaluation record_of(CandidateReport const& report, TimingTier tier) {
  RecordedEvaluation recorded;
  recorded.status = report.status;
  recorded.message = report.message;
  if (report.status == CandidateStatus::compile_error && !report.diagnostics.empty()) {
    constexpr std::size_t kMaxDiagnostics = 4000;  // the compiler's whole log can be long
    recorded.message += "\n" + report.diagnostics.substr(0, kMaxDiagnostics);
  }
  recorded.tier = std::string(to_string(tier));
  recorded.geomean_speedup = report.geomean_speedup;
  if (report.ran_on) recorded.ran_on = place_json(*report.ran_on);
  for (SizeResult const& size : report.sizes) {
    nlohmann::json entry = {{"size", size.size},
                            {"verify_only", size.verify_only},
                            {"status", std::string(to_string(size.status))},
                            {"message", size.message},
                            {"max_abs_err", size.max_abs_err},
                            {"max_rel_err", size.max_rel_err}};
    if (size.candidate) {
      entry["median_us"] = size.candidate->us.median;
      entry["iqr_us"] = size.candidate->us.iqr();
    }
    if (size.reference) entry["reference_us"] = size.reference->us.median;
    if (size.speedup) entry["speedup"] = *size.speedup;
    // The roofline of the size (work model against the device's ceilings), kept for reports.
    if (size.sol_us > 0) entry["sol_us"] = size.sol_us;
    if (size.pct_of_sol) entry["pct_of_sol"] = *size.pct_of_sol;
    if (size.achieved_gbps) entry["achieved_gbps"] = *size.achieved_gbps;
    if (size.achieved_gflops) entry["achieved_gflops"] = *size.achieved_gflops;
    recorded.sizes.push_back(std::move(entry));
  }
  return recorded;
}

RecordedEvaluation record_with_insights(CandidateReport const& report, TimingTier tier, TaskSpec const& task,
                                        DeviceCeilings const& ceilings) {
  RecordedEvaluation recorded = record_of(report, tier);
  recorded.insights = build_roofline_insights(task, report, ceilings);
  return recorded;
}

namespace {

std::optional<double> number_field(nlohmann::json const& entry, char const* name) {
  auto const it = entry.find(name);
  if (it == entry.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

nlohmann::json const* energy_entry(RecordedEvaluation const& evaluation) {
  if (!evaluation.sizes.is_array()) return nullptr;
  for (auto const& size : evaluation.sizes) {
    if (size.is_object() && number_field(size, "energy_j_per_call") &&
        number_field(size, "reference_energy_j_per_call"))
      return &size;
  }
  return nullptr;
}

void add_time_entries(RecordedEvaluation const& evaluation, OutcomeData& outcome) {
  for (auto const& size : evaluation.sizes) {
    if (!size.is_object() || size.value("verify_only", false)) continue;
    auto const median = size.find("median_us");
    auto const reference = size.find("reference_us");
    if (median == size.end() || reference == size.end() || !median->is_number() || !reference->is_number())
      continue;
    outcome.medians_us.push_back(median->get<double>());
    outcome.reference_us.push_back(reference->get<double>());
    auto const iqr = size.find("iqr_us");
    outcome.iqrs_us.push_back(iqr != size.end() && iqr->is_number() ? iqr->get<double>() : 0.0);
  }
}

}  // namespace

OutcomeData outcome_of(RecordedEvaluation const& evaluation, OptimizeObjective objective) {
  OutcomeData outcome;
  outcome.status = evaluation.status;
  outcome.detail = evaluation.message;
  if (evaluation.status != CandidateStatus::ok || !evaluation.sizes.is_array()) return outcome;
  if (objective == OptimizeObjective::runtime) {
    add_time_entries(evaluation, outcome);
    return outcome;
  }
  nlohmann::json const* energy = energy_entry(evaluation);
  if (energy == nullptr) return outcome;
  double const candidate_j = *number_field(*energy, "energy_j_per_call");
  double const reference_j = *number_field(*energy, "reference_energy_j_per_call");
  double const spread_j = number_field(*energy, "energy_spread_j").value_or(0.0);
  // The search reads an Outcome as "times": reference / candidate per entry, geomean over entries, noise
  // from the spread. Joules per call read the same way, so energy is one entry (the gain reference J /
  // candidate J), and composite is the n time entries plus the energy entry n times: the geomean over the
  // 2n entries is sqrt(time geomean x energy gain), and strategies, reward and guardrail stay unchanged.
  std::size_t repeats = 1;
  if (objective == OptimizeObjective::composite) {
    add_time_entries(evaluation, outcome);
    repeats = outcome.medians_us.size();
    if (repeats == 0) return outcome;  // nothing timed: scores as the reference
  }
  for (std::size_t i = 0; i < repeats; ++i) {
    outcome.medians_us.push_back(candidate_j);
    outcome.reference_us.push_back(reference_j);
    outcome.iqrs_us.push_back(spread_j);
  }
  return outcome;
}

std::optional<double> objective_score(RecordedEvaluation const& evaluation, OptimizeObjective objective) {
  if (objective == OptimizeObjective::runtime || evaluation.status != CandidateStatus::ok)
    return std::nullopt;
  OutcomeData const outcome = outcome_of(evaluation, objective);
  if (outcome.medians_us.empty()) return std::nullopt;
  double log_sum = 0.0;
  for (std::size_t i = 0; i < outcome.medians_us.size(); ++i) {
    if (!(outcome.medians_us[i] > 0.0) || !(outcome.reference_us[i] > 0.0)) return std::nullopt;
    log_sum += std::log(outcome.reference_us[i] / outcome.medians_us[i]);
  }
  return std::exp(log_sum / static_cast<double>(outcome.medians_us.size()));
}

bool add_energy(RecordedEvaluation& evaluation, std::string const& size, EnergyMeasurement const& candidate,
                double reference_j_per_call) {
  if (!evaluation.sizes.is_array()) return false;
  for (auto& entry : evaluation.sizes) {
    if (!entry.is_object() || entry.value("size", "") != size) continue;
    entry["energy_j_per_call"] = candidate.joules_per_call.median;
    entry["energy_spread_j"] = (candidate.joules_per_call.max - candidate.joules_per_call.min) / 2.0;
    entry["reference_energy_j_per_call"] = reference_j_per_call;
    entry["avg_watts"] = candidate.avg_watts;
    return true;
  }
  return false;
}

bool has_energy(RecordedEvaluation const& evaluation) {
  return energy_entry(evaluation) != nullptr;
}

}  // namespace kopt
