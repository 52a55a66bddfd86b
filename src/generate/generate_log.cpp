// GenerateLog: a generate run in the store, written with the same records as an optimize run.
#include "generate/generate_log.hpp"

#include "kopt/json_values.hpp"
#include "optimize/run_log.hpp"

namespace kopt::generate_detail {
namespace {

// The options of an optimize run (schema kopt.optimize/1, read by load_optimize_run) with strategy
// "generate" and what generate was asked under "generate". There is no starting source: every kernel is
// written by the model.
nlohmann::json run_options(GenerateOptions const& options) {
  return {{"schema", "kopt.optimize/1"},
          {"strategy", "generate"},
          {"source_path", ""},
          {"source", ""},
          {"flags", nlohmann::json::array()},
          {"confirm", options.confirm},
          {"search_memory", false},
          {"objective", "runtime"},
          {"generate",
           {{"intent", options.intent},
            {"strategies", options.strategies},
            {"repairs", options.repairs},
            {"mode", std::string(to_string(options.mode))},
            {"backend", options.backend_kind},
            {"model", options.model},
            {"prompt_version", kPromptVersion}}}};
}

}  // namespace

LlmCallRecord llm_call_record(LlmRequest const& request, Result<LlmReply> const& reply,
                              CallLabels const& labels, double failed_latency_ms) {
  LlmCallRecord record;
  record.role = labels.role;
  record.purpose = labels.purpose;
  record.request_sha256 = llm_request_hash(request);
  record.model = request.model.empty() ? labels.model : request.model;
  record.backend = labels.backend;
  if (!reply) {
    record.status = "error";
    record.error = redact_secret(reply.error().message, labels.secret);
    record.latency_ms = failed_latency_ms;
    return record;
  }
  if (!reply->model.empty()) record.model = reply->model;
  if (!reply->backend.empty() && record.backend.empty()) record.backend = reply->backend;
  record.input_tokens = reply->usage.input_tokens;
  record.output_tokens = reply->usage.output_tokens;
  record.cached_input_tokens = reply->usage.cached_input_tokens;
  record.reasoning_tokens = reply->usage.reasoning_tokens;
  record.cost_usd = reply->cost_usd;
  record.latency_ms = reply->latency_ms;
  record.from_cache = reply->from_cache;
  record.rationale = redact_secret(reply_prose(reply->text), labels.secret);
  return record;
}

Result<GenerateLog> GenerateLog::create(Store& store, TaskSpec const& task, GenerateOptions const& options,
                                        EvaluationTarget target) {
  Run run;
  run.task_name = task.name;
  run.task_dir = task.dir.string();
  run.options = run_options(options);
  run.seed = 0;
  run.budget = {
      {"llm_calls", options.limits.max_calls ? nlohmann::json(*options.limits.max_calls) : nlohmann::json()},
      {"usd", number_or_null(options.limits.max_cost_usd)}};
  auto id = store.create_run(run);
  if (!id) return id.error();
  return GenerateLog(store, *id, std::move(target));
}

Result<LlmCallId> GenerateLog::record_call(LlmCallRecord const& call) {
  return store_->add_llm_call(run_, call);
}

Result<CandidateId> GenerateLog::record_candidate(TaskSpec const& task, CandidateInput const& candidate,
                                                  std::optional<CandidateId> parent,
                                                  std::string const& action, CandidateReport const& report,
                                                  TimingTier tier) {
  Candidate row;
  row.key = content_key(candidate, target_);
  row.source = candidate.source;
  row.knobs = nlohmann::json::object();
  row.flags = candidate.flags;
  row.parent = parent;
  row.action = action;
  row.mode = std::string(to_string(candidate.mode));
  auto id = store_->add_candidate(run_, row);
  if (!id) return id.error();
  auto const recorded = optimize_detail::record_with_insights(report, tier, task, target_.ceilings);
  if (auto added = optimize_detail::store_evaluation(*store_, *id, recorded, target_); !added)
    return added.error();
  return *id;
}

Status GenerateLog::link(LlmCallId call, CandidateId candidate) {
  return store_->set_llm_call_candidate(call, candidate);
}

Status GenerateLog::finish(bool finished) {
  return store_->finish_run(run_, finished ? RunStatus::finished : RunStatus::interrupted);
}

}  // namespace kopt::generate_detail
