// Private to src/generate: what a generate run writes to the store. The run is a kopt.optimize/1 run of
// strategy "generate" (so `kopt runs`, `kopt report` and `kopt export` read it), its kernels are candidates
// with screen and confirm evaluations recorded as optimize records them, and every LLM call is a row of
// llm_calls.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "kopt/generate.hpp"
#include "kopt/run_log.hpp"

namespace kopt::generate_detail {

class GenerateLog {
 public:
  static Result<GenerateLog> create(Store& store, TaskSpec const& task, GenerateOptions const& options,
                                    EvaluationTarget target);

  RunId run() const noexcept { return log_.id(); }
  Result<LlmCallId> record_call(LlmCallRecord const& call);
  // Adds the candidate (once per content) and its evaluation on `tier`, with the cheap insights.
  Result<CandidateId> record_candidate(TaskSpec const& task, CandidateInput const& candidate,
                                       std::optional<CandidateId> parent, std::string const& action,
                                       CandidateReport const& report, TimingTier tier);
  Status link(LlmCallId call, CandidateId candidate);
  Status finish(bool finished);

 private:
  GenerateLog(Store& store, RunLog log, EvaluationTarget target)
      : store_(&store), log_(std::move(log)), target_(std::move(target)) {}
  Store* store_;  // the llm_calls rows, which RunLog does not write
  RunLog log_;
  EvaluationTarget target_;
};

}  // namespace kopt::generate_detail
