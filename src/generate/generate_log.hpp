// Private to src/generate: what a generate run writes to the store. The run is a kopt.optimize/1 run of
// strategy "generate" (so `kopt runs`, `kopt report` and `kopt export` read it), its kernels are candidates
// with screen and confirm evaluations recorded as optimize records them, and every LLM call is a row of
// llm_calls.
#pragma once

#include <optional>
#include <string>

#include "kopt/generate.hpp"

namespace kopt::generate_detail {

// Who made a call and for what, for its llm_calls row; `secret` is only redacted from what is stored.
struct CallLabels {
  std::string role;
  std::string purpose;
  std::string model;    // the configured model (the reply's, when it names one, wins)
  std::string backend;  // the configured kind (else the reply's)
  std::string secret;
};
// The llm_calls row of a call that was made: its usage, cost, latency and rationale (reply_prose), or why it
// failed (`failed_latency_ms` is its latency then; a reply carries its own). Secrets are redacted.
LlmCallRecord llm_call_record(LlmRequest const& request, Result<LlmReply> const& reply,
                              CallLabels const& labels, double failed_latency_ms);

class GenerateLog {
 public:
  static Result<GenerateLog> create(Store& store, TaskSpec const& task, GenerateOptions const& options,
                                    EvaluationTarget target);

  RunId run() const noexcept { return run_; }
  Result<LlmCallId> record_call(LlmCallRecord const& call);
  // Adds the candidate (once per content) and its evaluation on `tier`, with the cheap insights.
  Result<CandidateId> record_candidate(TaskSpec const& task, CandidateInput const& candidate,
                                       std::optional<CandidateId> parent, std::string const& action,
                                       CandidateReport const& report, TimingTier tier);
  Status link(LlmCallId call, CandidateId candidate);
  Status finish(bool finished);

 private:
  GenerateLog(Store& store, RunId run, EvaluationTarget target)
      : store_(&store), run_(run), target_(std::move(target)) {}
  Store* store_;
  RunId run_;
  EvaluationTarget target_;
};

}  // namespace kopt::generate_detail
