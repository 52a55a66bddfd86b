// Private to src/source_search: every evaluation of a source search, in one run of the store. A node's
// source is tuned briefly over its knobs (the search module's MCTS over its TuningSearchSpace) or evaluated
// once; each point is answered by this run's own record, the store's dedupe cache or the evaluator, recorded
// with its parent and action, counted against the run's budget of unique evaluations, and weighed against
// the incumbent with the guardrail.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "kopt/run_log.hpp"
#include "kopt/source_search.hpp"

namespace kopt::source_search_detail {

// What tuning one source gave.
struct NodeTuning {
  bool tunable = false;
  bool evaluated = false;                        // false: the budget ran out before its first point
  CandidateStatus status = CandidateStatus::ok;  // its first point's (the source's default configuration)
  std::string message;                           // that point's failure
  std::string errors;                            // the failure as the model is told it
  std::optional<CandidateId> first_candidate;
  std::optional<CandidateId> best_candidate;  // the fastest ok point (else the first)
  std::optional<double> best_speedup;
  std::string best_config;
  double reward = 0.0;             // search.hpp's reward of the best point (else the first)
  RecordedEvaluation best_record;  // its times and insights
  std::size_t points = 0;          // points of this tuning (repeats included)
  std::size_t added = 0;           // unique evaluations it added to the run
};

// The guardrail incumbent of the run.
struct Incumbent {
  Outcome outcome;
  CandidateInput input;
  CandidateId candidate;
  std::size_t node = 0;
  std::optional<double> speedup;
};

class RunEvaluations {
 public:
  RunEvaluations(TaskSpec const& task, SourceSearchOptions const& options, CandidateEvaluator& evaluator,
                 RunLog& log);

  // Tunes `source` with up to `budget` points (a source without knobs: one). Its first candidate gets
  // `parent` and `action`; knob points get their knob parent and move. Points this run holds cost nothing,
  // so tuning a node again with a larger budget (deepen) replays them first.
  Result<NodeTuning> tune(std::string const& source, std::optional<CandidateId> parent,
                          std::string const& action, std::size_t budget, std::size_t node);

  bool exhausted() const;                // the budget of unique evaluations or the wall time is spent
  std::string exhausted_reason() const;  // "evaluations" or "wall_time"
  std::size_t unique() const noexcept { return unique_; }
  std::size_t evaluated() const noexcept { return evaluated_; }
  std::size_t from_store() const noexcept { return from_store_; }
  std::optional<Incumbent> const& incumbent() const noexcept { return incumbent_; }

  // The incumbent on the confirm tier, recorded; nullopt without an incumbent.
  Result<std::optional<CandidateReport>> confirm();

  struct Evaluated {
    RecordedEvaluation record;
    std::optional<CandidateReport> report;  // when the evaluator answered now
    CandidateId candidate;
    Outcome outcome;
  };
  // One candidate: nullopt when the budget is spent and the run does not hold it yet.
  Result<std::optional<Evaluated>> evaluate(CandidateInput const& input, std::optional<CandidateId> parent,
                                            std::string const& action, std::size_t node);

 private:
  TaskSpec const& task_;
  SourceSearchOptions const& options_;
  CandidateEvaluator& evaluator_;
  RunLog& log_;
  EvaluationTarget target_;
  std::chrono::steady_clock::time_point started_;
  std::size_t unique_ = 0;
  std::size_t evaluated_ = 0;
  std::size_t from_store_ = 0;
  std::optional<Incumbent> incumbent_;
};

}  // namespace kopt::source_search_detail
