// Private to src/source_search: one LLM edit of a source node. The planner chooses a change and says why
// (its PLAN paragraph is the step's rationale); the coder applies it as SEARCH/REPLACE blocks or a whole
// file; an edit that does not apply, a kernel that does not compile or is wrong goes back to the coder with
// the reason for a bounded number of repair rounds; with a judge, a kernel it rejects goes back with its
// reason before reaching the GPU. Every call is an llm_calls row linked to the candidate it
// became.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kopt/source_search.hpp"
#include "kopt/store.hpp"
#include "source_search/run_evaluations.hpp"

namespace kopt::source_search_detail {

// The free option of the planner besides the library's strategies.
inline constexpr std::string_view kOwnChange = "own_change";

struct EditRequest {
  PromptContext context;  // the task part, and the parent's kernel, times, findings and siblings
  std::vector<PromptOption> options;
  std::string parent_source;
  std::optional<CandidateId> parent_candidate;
  std::size_t parent_node = 0;
  std::size_t node = 0;  // the index the child gets
};

struct EditOutcome {
  SourceStep step;                    // status, message, choice, rationale, rounds, calls, cost
  std::optional<std::string> source;  // the last kernel that applied (the child's source)
  std::optional<NodeTuning> tuning;   // of that kernel
  bool stopped = false;               // the LLM budget refused a call: the run stops
  std::string stop_reason;
};

class LlmEditor {
 public:
  LlmEditor(LlmBackend& backend, Store& store, RunId run, SourceSearchOptions const& options,
            RunEvaluations& evaluations)
      : backend_(backend), store_(store), run_(run), options_(options), evaluations_(evaluations) {}

  Result<EditOutcome> edit(EditRequest const& request);

  int calls() const noexcept { return calls_; }
  double cost_usd() const noexcept { return cost_usd_; }
  bool cost_complete() const noexcept { return cost_complete_; }

 private:
  struct Reply {
    std::optional<std::string> text;  // nullopt: failed or refused
    std::optional<LlmCallId> call;    // the row, when the call was made
  };
  // One call, recorded. `rationale_of` turns the reply into the row's rationale (default: its prose).
  Result<Reply> call(LlmRequest const& request, std::string const& role, std::string const& purpose,
                     EditOutcome& outcome,
                     std::function<std::string(std::string const&)> const& rationale_of = {});
  Result<std::optional<PlannerReply>> plan(EditRequest const& request, EditOutcome& outcome,
                                           std::vector<LlmCallId>& calls);
  // The judge's verdict on `kernel` (a reply it cannot parse, or a failed call, accepts: the GPU decides).
  Result<JudgeReply> judge(PromptContext context, std::string const& kernel, std::size_t node,
                           EditOutcome& outcome);

  LlmBackend& backend_;
  Store& store_;
  RunId run_;
  SourceSearchOptions const& options_;
  RunEvaluations& evaluations_;
  int calls_ = 0;
  double cost_usd_ = 0.0;
  bool cost_complete_ = true;
};

}  // namespace kopt::source_search_detail
