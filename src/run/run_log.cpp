// RunLog: one run in the store as the proposer writing it sees it, and an evaluation added with its
// insights.
#include "kopt/run_log.hpp"

namespace kopt {
namespace {

RecordedEvaluation recorded(kopt::EvaluationRecord const& stored) {
  return RecordedEvaluation{stored.status,          stored.message, stored.tier, stored.geomean_speedup,
                            stored.objective_score, stored.sizes,   {},          stored.ran_on};
}

nlohmann::json memory_json(std::string const& family, std::vector<ActionRecord> const& records) {
  nlohmann::json prior = nlohmann::json::array();
  for (ActionRecord const& record : records)
    prior.push_back(
        {{"action", record.action}, {"tries", record.tries}, {"mean_log_gain", record.mean_log_gain}});
  return {{"family", family}, {"prior", std::move(prior)}};
}

// The snapshot written by create(); a run without one (memory off, or an older kopt) has none.
Status read_memory(nlohmann::json const& options, RunId run, std::string& family,
                   std::vector<MemoryPrior>& prior) {
  auto const memory = options.find("memory");
  if (memory == options.end() || memory->is_null()) return Ok{};
  auto bad = [&](std::string const& field) {
    return make_error(ErrorCode::invalid_spec, "run " + std::to_string(run.value()) + ": options.memory." +
                                                   field +
                                                   ": expected the search-memory snapshot kopt wrote");
  };
  if (!memory->is_object() || !memory->contains("family") || !(*memory)["family"].is_string())
    return bad("family");
  family = (*memory)["family"].get<std::string>();
  auto const entries = memory->find("prior");
  if (entries == memory->end() || !entries->is_array()) return bad("prior");
  for (auto const& entry : *entries) {
    if (!entry.is_object() || !entry.contains("action") || !entry["action"].is_string() ||
        !entry.contains("tries") || !entry["tries"].is_number_integer() || !entry.contains("mean_log_gain") ||
        !entry["mean_log_gain"].is_number())
      return bad("prior");
    prior.push_back(MemoryPrior{entry["action"].get<std::string>(), entry["tries"].get<std::int64_t>(),
                                entry["mean_log_gain"].get<double>()});
  }
  return Ok{};
}

}  // namespace

Result<RunLog> RunLog::create(Store& store, Run run, std::string const& memory_family) {
  if (!memory_family.empty()) {
    auto records = store.search_memory(memory_family);
    if (!records) return records.error();
    run.options["memory"] = memory_json(memory_family, *records);
  }
  auto id = store.create_run(run);
  if (!id) return id.error();
  RunLog log(store, *id);
  if (auto status = read_memory(run.options, *id, log.memory_family_, log.memory_prior_); !status)
    return status.error();
  return log;
}

Result<RunLog> RunLog::reopen(Store& store, RunId run) {
  auto history = store.load_run(run);
  if (!history) return history.error();
  RunLog log(store, run);
  if (auto status = read_memory(history->run.run.options, run, log.memory_family_, log.memory_prior_);
      !status)
    return status.error();
  std::map<std::int64_t, std::string> key_of;
  for (StoredCandidate const& candidate : history->candidates) {
    key_of[candidate.id.value()] = candidate.candidate.key.value();
    log.ids_[candidate.candidate.key.value()] = candidate.id;
  }
  for (StoredEvaluation const& evaluation : history->evaluations) {  // insertion order: newest wins
    auto const key = key_of.find(evaluation.candidate.value());
    if (key == key_of.end()) continue;
    log.own_[{key->second, evaluation.evaluation.tier}] = recorded(evaluation.evaluation);
  }
  return log;
}

std::optional<RecordedEvaluation> RunLog::own(CandidateKey const& key, std::string const& tier) const {
  auto const it = own_.find({key.value(), tier});
  if (it == own_.end()) return std::nullopt;
  return it->second;
}

std::optional<CandidateId> RunLog::candidate_id(CandidateKey const& key) const {
  auto const it = ids_.find(key.value());
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

Result<std::optional<RecordedEvaluation>> RunLog::cached(CandidateKey const& key,
                                                         EvaluationTarget const& target) {
  // Screen-tier timings only: a confirm-tier median (graph replay, more samples) is not comparable with
  // the screen-tier rewards of the other points.
  auto found =
      store_->find_evaluation_by_key(key, target.device_uuid, target.toolkit, std::string_view("screen"));
  if (!found) return found.error();
  if (!*found) return std::optional<RecordedEvaluation>{};
  RecordedEvaluation evaluation = recorded((*found)->evaluation);
  auto insights = store_->insights_for_evaluation((*found)->id);
  if (!insights) return insights.error();
  evaluation.insights = decode_insights(*insights);
  return std::optional<RecordedEvaluation>{std::move(evaluation)};
}

Result<CandidateId> RunLog::record(CandidateKey const& key, CandidateInput const& candidate,
                                   std::optional<CandidateId> parent, std::string const& action,
                                   RecordedEvaluation const& evaluation, EvaluationTarget const& target) {
  Candidate row;
  row.key = key;
  row.source = candidate.source;
  row.knobs = nlohmann::json::object();
  for (auto const& [name, value] : candidate.knobs) row.knobs[name] = value;
  row.flags = candidate.flags;
  row.parent = parent;
  row.action = action;
  row.mode = std::string(to_string(candidate.mode));
  auto id = store_->add_candidate(id_, row);
  if (!id) return id.error();
  if (auto added = store_evaluation(*store_, *id, evaluation, target); !added) return added.error();
  ids_[key.value()] = *id;
  own_[{key.value(), evaluation.tier}] = evaluation;
  return *id;
}

Status RunLog::record_memory(std::vector<std::pair<std::string, double>> const& outcomes) {
  if (memory_family_.empty()) return Ok{};
  std::vector<ActionOutcome> rows;
  rows.reserve(outcomes.size());
  for (auto const& [action, gain] : outcomes) rows.push_back(ActionOutcome{action, gain});
  return store_->record_search_memory(id_, memory_family_, rows);
}

Status RunLog::finish(bool finished) {
  return store_->finish_run(id_, finished ? RunStatus::finished : RunStatus::interrupted);
}

Result<EvaluationId> store_evaluation(Store& store, CandidateId candidate,
                                      RecordedEvaluation const& evaluation, EvaluationTarget const& target) {
  kopt::EvaluationRecord stored;
  stored.status = evaluation.status;
  stored.message = evaluation.message;
  stored.device_name = target.device_name;
  stored.device_uuid = target.device_uuid;
  stored.driver = target.driver;
  stored.toolkit = target.toolkit;
  stored.tier = evaluation.tier;
  stored.geomean_speedup = evaluation.geomean_speedup;
  stored.objective_score = evaluation.objective_score;
  stored.sizes = evaluation.sizes;
  stored.ran_on = evaluation.ran_on;
  auto added = store.add_evaluation(candidate, stored);
  if (!added) return added.error();
  for (CandidateInsight const& insight : evaluation.insights) {
    if (auto kept = store.add_insight(*added, insight_record(insight)); !kept) return kept.error();
  }
  return *added;
}

}  // namespace kopt
