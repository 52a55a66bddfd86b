// run_search: the driver. Unique evaluations only, a cache for repeated proposals, the incumbent
// guardrail, and the budget.
#include <algorithm>
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

std::vector<Outcome> Objective::evaluate_batch(std::vector<Proposal> const& proposals) {
  std::vector<Outcome> outcomes;
  outcomes.reserve(proposals.size());
  for (Proposal const& proposal : proposals) outcomes.push_back(evaluate(proposal.point));
  return outcomes;
}

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
  if (budget.concurrent_evaluations == 0) {
    return make_error(ErrorCode::invalid_argument,
                      "budget: concurrent_evaluations is 0 (expected at least 1)");
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
    // Gather up to concurrent_evaluations fresh proposals, never more than the budget has left.
    std::size_t const room =
        std::min(budget.concurrent_evaluations, budget.max_evaluations - history.evaluations().size());
    std::vector<Proposal> batch;
    std::vector<Proposal> repeats_of_batch;  // proposed again while in flight: answered once it is back
    std::optional<StopReason> stop;
    while (batch.size() < room) {
      auto proposal = strategy.propose(history);
      if (!proposal) {
        stop = StopReason::exhausted;
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
          stop = StopReason::stalled;
          break;
        }
        continue;
      }
      repeated_in_a_row = 0;
      if (std::any_of(batch.begin(), batch.end(),
                      [&](Proposal const& in_flight) { return in_flight.point == proposal->point; })) {
        repeats_of_batch.push_back(std::move(*proposal));
        break;
      }
      batch.push_back(std::move(*proposal));
    }

    std::vector<Outcome> outcomes;
    if (batch.size() == 1) {
      outcomes.push_back(objective.evaluate(batch.front().point));
    } else if (!batch.empty()) {
      outcomes = objective.evaluate_batch(batch);
      if (outcomes.size() != batch.size()) {
        return make_error(ErrorCode::internal_error, "objective: " + std::to_string(batch.size()) +
                                                         " points asked for, " +
                                                         std::to_string(outcomes.size()) + " outcomes back");
      }
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
      Proposal const& proposal = batch[i];
      Evaluation evaluation;
      evaluation.point = proposal.point;
      if (proposal.parent) {
        if (auto const* parent = history.find(*proposal.parent)) evaluation.parent = parent->index;
      }
      evaluation.action = proposal.action;
      evaluation.outcome = std::move(outcomes[i]);
      if (evaluation.outcome.status == CandidateStatus::ok) {
        if (auto problem = outcome_problem(evaluation.outcome); !problem.empty()) {
          return make_error(ErrorCode::internal_error, "objective: ok outcome for point " +
                                                           to_string(proposal.point) +
                                                           " is inconsistent: " + problem);
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
      strategy.observe(proposal, stored, true);
    }
    for (Proposal const& repeat : repeats_of_batch) {
      ++result.repeated_proposals;
      strategy.observe(repeat, *history.find(repeat.point), false);
    }
    if (stop) {
      result.stop_reason = *stop;
      break;
    }
  }
  result.trajectory = history.evaluations();
  result.elapsed_seconds = elapsed();
  return result;
}

}  // namespace kopt
