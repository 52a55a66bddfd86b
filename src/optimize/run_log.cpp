// RunLog: the driver's view of one run in the store (this file sees store.hpp, never search.hpp).
#include "run_log.hpp"

#include "kopt/store.hpp"

namespace kopt::optimize_detail {
namespace {

RecordedEvaluation recorded(kopt::EvaluationRecord const& stored) {
  return RecordedEvaluation{stored.status, stored.message, stored.tier, stored.geomean_speedup, stored.sizes};
}

}  // namespace

Result<RunLog> RunLog::create(Store& store, TaskSpec const& task, std::string const& source,
                              OptimizeOptions const& options) {
  Run run;
  run.task_name = task.name;
  run.task_dir = task.dir.string();
  run.options = options_json(options, source);
  run.seed = options.seed;
  run.budget = {{"evaluations", options.max_evaluations}, {"seconds", options.max_wall_seconds}};
  auto id = store.create_run(run);
  if (!id) return id.error();
  return RunLog(store, *id);
}

Result<RunLog> RunLog::reopen(Store& store, RunId run) {
  auto history = store.load_run(run);
  if (!history) return history.error();
  RunLog log(store, run);
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
  auto found = store_->find_evaluation_by_key(key, target.device_uuid, target.toolkit);
  if (!found) return found.error();
  if (!*found) return std::optional<RecordedEvaluation>{};
  return std::optional<RecordedEvaluation>{recorded((*found)->evaluation)};
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
  kopt::EvaluationRecord stored;
  stored.status = evaluation.status;
  stored.message = evaluation.message;
  stored.device_name = target.device_name;
  stored.device_uuid = target.device_uuid;
  stored.driver = target.driver;
  stored.toolkit = target.toolkit;
  stored.tier = evaluation.tier;
  stored.geomean_speedup = evaluation.geomean_speedup;
  stored.sizes = evaluation.sizes;
  if (auto added = store_->add_evaluation(*id, stored); !added) return added.error();
  ids_[key.value()] = *id;
  own_[{key.value(), evaluation.tier}] = evaluation;
  return *id;
}

Status RunLog::finish(bool finished) {
  return store_->finish_run(id_, finished ? RunStatus::finished : RunStatus::interrupted);
}

}  // namespace kopt::optimize_detail
