// run_search: the driver. Unique evaluations only, a cache for repeated proposals, the incumbent
// guardrail, and the budget.
#include <chrono>

#include "kopt/search.hpp"

namespace kopt {

std::string_view to_string(StopReason reason) noexcept {
  switch (reason) {
    case StopReason::evaluations: return "evaluations";
    case StopReason::wall_time: return "wall_time";
    case StopReason::exhausted: return "exhausted";
    case StopReason::stalled: return "stalled";
  }
  return "unknown";
}

namespace {

// Consecutive proposals answered from the cache after which a strategy is considered stuck.
constexpr std::size_t kMaxRepeatedInARow = 10000;

Status check_space(SearchSpace const& space) {
  auto const dims = space.dimensions();
  if (dims.empty())
    return make_error(ErrorCode::invalid_argument, "search space: no dimensions (expected at least one)");
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i].size <= 0) {
      return make_error(ErrorCode::invalid_argument,
                        "search space: dimension " + std::to_string(i) + " ('" + dims[i].name + "') has " +
                            std::to_string(dims[i].size) + " values (expected at least 1)");
    }
  }
  return Ok{};
}

}  // namespace

Result<SearchResult> run_search(SearchSpace const& space, Objective& objective, Strategy& strategy,
                                Budget const& budget, std::uint64_t seed, GuardrailConfig const& guardrail) {
  if (auto status = check_space(space); !status) return status.error();
  if (budget.max_evaluations == 0) {
    return make_error(ErrorCode::invalid_argument, "budget: max_evaluations is 0 (expected at least 1)");
  }
  if (budget.max_wall_seconds < 0.0) {
    return make_error(ErrorCode::invalid_argument,
                      "budget: max_wall_seconds is negative (expected >= 0, 0 = no limit)");
  }
  auto const dims = space.dimensions();
  auto const started = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };

  SearchHistory history;
  SearchResult result;
  std::size_t repeated_in_a_row = 0;
  strategy.start(space, seed);
  while (true) {
    if (history.evaluations().size() >= budget.max_evaluations) {
      result.stop_reason = StopReason::evaluations;
      break;
    }
    if (budget.max_wall_seconds > 0.0 && elapsed() >= budget.max_wall_seconds) {
      result.stop_reason = StopReason::wall_time;
      break;
    }
    auto proposal = strategy.propose(history);
    if (!proposal) {
      result.stop_reason = StopReason::exhausted;
      break;
    }
    if (!in_range(dims, proposal->point) || !space.is_valid(proposal->point)) {
      return make_error(ErrorCode::internal_error, "strategy '" + std::string(strategy.name()) +
                                                       "' proposed point " + to_string(proposal->point) +
                                                       ", which is out of range or violates a constraint");
    }
    if (auto const* cached = history.find(proposal->point)) {
      ++result.repeated_proposals;
      strategy.observe(*proposal, *cached, false);
      if (++repeated_in_a_row >= kMaxRepeatedInARow) {
        result.stop_reason = StopReason::stalled;
        break;
      }
      continue;
    }
    repeated_in_a_row = 0;

    Evaluation evaluation;
    evaluation.point = proposal->point;
    if (proposal->parent) {
      if (auto const* parent = history.find(*proposal->parent)) evaluation.parent = parent->index;
    }
    evaluation.action = proposal->action;
    evaluation.outcome = objective.evaluate(proposal->point);
    if (evaluation.outcome.status == CandidateStatus::ok) {
      if (auto problem = outcome_problem(evaluation.outcome); !problem.empty()) {
        return make_error(
            ErrorCode::internal_error,
            "objective: ok outcome for point " + to_string(proposal->point) + " is inconsistent: " + problem);
      }
    }
    evaluation.reward = reward(evaluation.outcome);
    auto const index = history.evaluations().size();
    if (evaluation.outcome.status == CandidateStatus::ok &&
        (!result.incumbent ||
         improves_on(evaluation.outcome, history.evaluations()[*result.incumbent].outcome, guardrail))) {
      evaluation.became_incumbent = true;
      result.incumbent = index;
    }
    if (!result.best_reward || evaluation.reward > history.evaluations()[*result.best_reward].reward) {
      result.best_reward = index;
    }
    Evaluation const& stored = history.add(std::move(evaluation));
    strategy.observe(*proposal, stored, true);
  }
  result.trajectory = history.evaluations();
  result.elapsed_seconds = elapsed();
  return result;
}

}  // namespace kopt
