// GenerateLog: a generate run in the store, written through the run layer's RunLog as an optimize run is.
#include "generate/generate_log.hpp"

#include "kopt/json_values.hpp"
#include "kopt/run_log.hpp"

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
  auto log = RunLog::create(store, std::move(run), "");  // generate keeps no search memory
  if (!log) return log.error();
  return GenerateLog(store, std::move(*log), std::move(target));
}

Result<LlmCallId> GenerateLog::record_call(LlmCallRecord const& call) {
  return store_->add_llm_call(log_.id(), call);
}

Result<CandidateId> GenerateLog::record_candidate(TaskSpec const& task, CandidateInput const& candidate,
                                                  std::optional<CandidateId> parent,
                                                  std::string const& action, CandidateReport const& report,
                                                  TimingTier tier) {
  auto const recorded = record_with_insights(report, tier, task, target_.ceilings);
  return log_.record(content_key(candidate, target_), candidate, parent, action, recorded, target_);
}

Status GenerateLog::link(LlmCallId call, CandidateId candidate) {
  return store_->set_llm_call_candidate(call, candidate);
}

Status GenerateLog::finish(bool finished) {
  return log_.finish(finished);
}

}  // namespace kopt::generate_detail
