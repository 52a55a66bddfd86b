// Hill climbing: best-improvement over the space's actions, random restart at a local optimum.
#include <deque>

#include "kopt/search.hpp"
#include "search/point_sampler.hpp"

namespace kopt {
namespace {

class HillClimbingStrategy final : public Strategy {
 public:
  std::string_view name() const override { return "greedy"; }

  void start(SearchSpace const& space, std::uint64_t seed) override {
    space_ = &space;
    sampler_ = search_detail::PointSampler(space, seed);
    current_.reset();
    pending_.clear();
    first_ = true;
  }

  std::optional<Proposal> propose(SearchHistory const& history) override {
    if (space_ == nullptr) return std::nullopt;
    // Bounded: each pass either proposes, moves uphill (finite), or restarts (consumes a point).
    while (true) {
      if (!current_) {
        auto root = first_point(history);
        if (!root) return std::nullopt;
        if (auto const* seen = history.find(*root)) {
          adopt(*seen);
          continue;
        }
        return Proposal{std::move(*root), {}, {}};
      }
      while (!pending_.empty()) {
        Action action = std::move(pending_.front());
        pending_.pop_front();
        if (!history.contains(action.target))
          return Proposal{std::move(action.target), current_, action.name};
      }
      // Every neighbour is known: move to the best one if it improves, else restart.
      Evaluation const* best = nullptr;
      for (auto const& action : space_->actions(*current_)) {
        auto const* seen = history.find(action.target);
        if (seen != nullptr && (best == nullptr || seen->reward > best->reward)) best = seen;
      }
      if (best != nullptr && best->reward > current_reward_) {
        adopt(*best);
      } else {
        current_.reset();
      }
    }
  }

  void observe(Proposal const& proposal, Evaluation const& evaluation, bool /*fresh*/) override {
    if (!proposal.parent) adopt(evaluation);  // a (re)start point becomes the current point
  }

 private:
  std::optional<Point> first_point(SearchHistory const& history) {
    if (first_) {
      first_ = false;
      auto start = space_->start_point();
      if (start && space_->is_valid(*start)) return start;
    }
    return sampler_.next(history);
  }

  void adopt(Evaluation const& evaluation) {
    current_ = evaluation.point;
    current_reward_ = evaluation.reward;
    auto actions = space_->actions(evaluation.point);
    pending_.assign(actions.begin(), actions.end());
  }

  SearchSpace const* space_ = nullptr;
  search_detail::PointSampler sampler_;
  std::optional<Point> current_;
  double current_reward_ = 0.0;
  std::deque<Action> pending_;
  bool first_ = true;
};

}  // namespace

std::unique_ptr<Strategy> make_hill_climbing_strategy() {
  return std::make_unique<HillClimbingStrategy>();
}

}  // namespace kopt
