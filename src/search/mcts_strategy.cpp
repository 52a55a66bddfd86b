// MCTS over candidates: nodes are evaluated points, edges are actions. UCT on the calibrated
// reward with progressive widening (wider near the root), dead-end pruning and an action prior.
// A virtual super-root holds a slowly widening forest of trees started at random points.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "kopt/search.hpp"
#include "search/point_sampler.hpp"

namespace kopt {

int allowed_children(MctsConfig const& config, int visits, int depth) {
  double const k =
      config.widening_k * (1.0 + config.root_widening_boost * std::pow(config.depth_decay, depth));
  double const allowed = std::ceil(k * std::pow(std::max(visits, 1), config.widening_alpha) - 1e-9);
  return std::max(1, static_cast<int>(allowed));
}

double backed_up_value(MctsConfig const& config, double reward_sum, int visits, double max_reward) {
  double const mean = reward_sum / std::max(visits, 1);
  return (1.0 - config.max_backup_weight) * mean + config.max_backup_weight * max_reward;
}

double uct_score(MctsConfig const& config, double child_value, int parent_visits, int child_visits) {
  return child_value +
         config.exploration * std::sqrt(std::log(std::max(parent_visits, 1)) / std::max(child_visits, 1));
}

namespace {

constexpr int kSuperRoot = 0;

}  // namespace

struct MctsStrategy::Tree {
  // A node of the tree (nested, not in an anonymous namespace: Tree is declared in the header).
  struct Node {
    Point point;
    int parent = -1;
    std::string action;
    int depth = 0;  // roots of trees are at depth 0; the super-root is not a real node
    int visits = 0;
    double reward_sum = 0.0;
    double max_reward = -std::numeric_limits<double>::infinity();
    double own_reward = 0.0;
    std::vector<int> children;
    std::vector<Action> untried;
    bool actions_loaded = false;
    int expansions = 0;
    std::vector<bool> recent_ok;  // outcome of the last expansions, oldest first
    bool dead_end = false;
    bool exhausted = false;
    // Concurrent evaluations (virtual loss): proposals made at or below this node whose outcomes have
    // not come back, and children proposed from this node that are not in the tree yet. Both stay 0 when
    // each proposal is observed before the next.
    int in_flight = 0;
    int pending_children = 0;
  };

  MctsConfig config;
  std::shared_ptr<ActionMemory> memory;
  SearchSpace const* space = nullptr;
  std::mt19937_64 rng;
  search_detail::PointSampler sampler;
  std::vector<Node> nodes;
  std::map<Point, int> by_point;
  std::map<Point, int> proposed_from;  // in flight: the node each proposal expands (kSuperRoot: a root)
  bool first_root = true;
  bool sampler_empty = false;

  double value(Node const& node) const {
    return backed_up_value(config, node.reward_sum, node.visits, node.max_reward);
  }

  double prior_score(Action const& action) const {
    if (config.prior_weight == 0.0) return 0.0;
    ActionStats const stats = memory->stats(action.name);
    return config.prior_weight * stats.mean_gain * stats.tries / (stats.tries + config.prior_pseudo_count);
  }

  void load_actions(Node& node) {
    if (node.actions_loaded) return;
    node.actions_loaded = true;
    node.untried = space->actions(node.point);
    std::shuffle(node.untried.begin(), node.untried.end(), rng);  // random order among equal priors
  }

  // In the tree, evaluated, or in flight.
  bool known(Point const& point, SearchHistory const& history) const {
    return by_point.contains(point) || proposed_from.contains(point) || history.contains(point);
  }

  // Drops untried actions whose target is already known, then takes the one the prior likes best.
  std::optional<Action> take_untried(Node& node, SearchHistory const& history) {
    std::erase_if(node.untried,
                  [&](Action const& a) { return known(a.target, history) || !space->is_valid(a.target); });
    if (node.untried.empty()) return std::nullopt;
    auto best = node.untried.begin();
    double best_score = prior_score(*best);
    for (auto it = std::next(best); it != node.untried.end(); ++it) {
      double const score = prior_score(*it);
      if (score > best_score) {
        best = it;
        best_score = score;
      }
    }
    Action action = std::move(*best);
    node.untried.erase(best);
    return action;
  }

  int uct_child(Node const& node) const {
    int best = -1;
    double best_score = -std::numeric_limits<double>::infinity();
    for (int c : node.children) {
      Node const& child = nodes[static_cast<std::size_t>(c)];
      if (child.exhausted) continue;
      // A path with evaluations in flight counts them as visits (virtual loss): its exploration bonus
      // shrinks, so the next concurrent proposal looks elsewhere.
      double const score =
          uct_score(config, value(child), node.visits + node.in_flight, child.visits + child.in_flight);
      if (score > best_score) {
        best_score = score;
        best = c;
      }
    }
    return best;
  }

  std::optional<Point> next_root(SearchHistory const& history) {
    if (first_root) {
      first_root = false;
      auto start = space->start_point();
      if (start && space->is_valid(*start) && !known(*start, history)) {
        return start;
      }
    }
    auto point = sampler.next(history);
    while (point && known(*point, history)) point = sampler.next(history);
    if (!point) sampler_empty = true;
    return point;
  }

  std::optional<Proposal> propose(SearchHistory const& history) {
    // Every pass proposes, or marks one node exhausted: the loop ends.
    while (true) {
      Node& super = nodes[kSuperRoot];
      int const roots = static_cast<int>(super.children.size()) + super.pending_children;
      double const allowed_roots =
          std::ceil(config.roots_k * std::pow(std::max(super.visits, 1), config.roots_alpha));
      int descend = uct_child(super);
      if (!sampler_empty && (roots < allowed_roots || descend < 0)) {
        if (auto point = next_root(history)) {
          mark_in_flight(*point, kSuperRoot);
          return Proposal{std::move(*point), {}, {}};
        }
      }
      if (descend < 0) return std::nullopt;  // everything reachable has been evaluated
      int n = descend;
      while (true) {
        Node& node = nodes[static_cast<std::size_t>(n)];
        load_actions(node);
        int const child = uct_child(node);
        bool const widen = static_cast<int>(node.children.size()) + node.pending_children <
                           allowed_children(config, node.visits + node.in_flight, node.depth);
        if (!node.dead_end && (widen || child < 0)) {
          if (auto action = take_untried(node, history)) {
            mark_in_flight(action->target, n);
            return Proposal{std::move(action->target), node.point, std::move(action->name)};
          }
        }
        if (child < 0) {
          node.exhausted = true;
          break;
        }
        n = child;
      }
    }
  }

  // A proposal leaves `from` (a node, or kSuperRoot for a new root): the path up to the super-root has one
  // more evaluation in flight until its outcome is observed.
  void mark_in_flight(Point const& point, int from) {
    proposed_from[point] = from;
    ++nodes[static_cast<std::size_t>(from)].pending_children;
    for (int n = from; n >= 0; n = nodes[static_cast<std::size_t>(n)].parent) {
      ++nodes[static_cast<std::size_t>(n)].in_flight;
      if (n == kSuperRoot) break;
    }
  }

  void clear_in_flight(Point const& point) {
    auto const it = proposed_from.find(point);
    if (it == proposed_from.end()) return;
    int const from = it->second;
    proposed_from.erase(it);
    --nodes[static_cast<std::size_t>(from)].pending_children;
    for (int n = from; n >= 0; n = nodes[static_cast<std::size_t>(n)].parent) {
      --nodes[static_cast<std::size_t>(n)].in_flight;
      if (n == kSuperRoot) break;
    }
  }

  void observe(Proposal const& proposal, Evaluation const& evaluation) {
    clear_in_flight(evaluation.point);
    if (by_point.contains(evaluation.point)) return;  // already in the tree (cannot happen via propose)
    int parent = kSuperRoot;
    if (proposal.parent) {
      auto const it = by_point.find(*proposal.parent);
      if (it != by_point.end()) parent = it->second;
    }
    Node node;
    node.point = evaluation.point;
    node.parent = parent;
    node.action = proposal.action;
    node.depth = parent == kSuperRoot ? 0 : nodes[static_cast<std::size_t>(parent)].depth + 1;
    node.own_reward = evaluation.reward;
    int const index = static_cast<int>(nodes.size());
    nodes.push_back(std::move(node));
    by_point.emplace(evaluation.point, index);
    nodes[static_cast<std::size_t>(parent)].children.push_back(index);

    bool const ok = evaluation.outcome.status == CandidateStatus::ok;
    if (parent != kSuperRoot) {
      Node& p = nodes[static_cast<std::size_t>(parent)];
      ++p.expansions;
      p.recent_ok.push_back(ok);
      auto const window = static_cast<std::size_t>(std::max(config.dead_end_window, 1));
      if (p.recent_ok.size() > window) p.recent_ok.erase(p.recent_ok.begin());
      if (p.recent_ok.size() == window &&
          std::none_of(p.recent_ok.begin(), p.recent_ok.end(), [](bool b) { return b; })) {
        p.dead_end = true;
      }
      if (!proposal.action.empty()) memory->record(proposal.action, evaluation.reward - p.own_reward);
    }
    for (int n = index; n >= 0; n = nodes[static_cast<std::size_t>(n)].parent) {
      Node& up = nodes[static_cast<std::size_t>(n)];
      ++up.visits;
      up.reward_sum += evaluation.reward;
      up.max_reward = std::max(up.max_reward, evaluation.reward);
      if (n == kSuperRoot) break;
    }
  }
};

MctsStrategy::MctsStrategy(MctsConfig config, std::shared_ptr<ActionMemory> memory)
    : tree_(std::make_unique<Tree>()) {
  tree_->config = config;
  tree_->memory = memory ? std::move(memory) : std::make_shared<InMemoryActionMemory>();
}

MctsStrategy::~MctsStrategy() = default;

void MctsStrategy::start(SearchSpace const& space, std::uint64_t seed) {
  tree_->space = &space;
  tree_->rng.seed(seed);
  tree_->sampler = search_detail::PointSampler(space, seed ^ 0x5bd1e995ULL);
  tree_->nodes.assign(1, Tree::Node{});
  tree_->by_point.clear();
  tree_->proposed_from.clear();
  tree_->first_root = true;
  tree_->sampler_empty = false;
}

std::optional<Proposal> MctsStrategy::propose(SearchHistory const& history) {
  if (tree_->space == nullptr) return std::nullopt;
  return tree_->propose(history);
}

void MctsStrategy::observe(Proposal const& proposal, Evaluation const& evaluation, bool /*fresh*/) {
  if (tree_->space == nullptr) return;
  tree_->observe(proposal, evaluation);
}

std::optional<MctsNodeView> MctsStrategy::node(Point const& point) const {
  auto const it = tree_->by_point.find(point);
  if (it == tree_->by_point.end()) return std::nullopt;
  Tree::Node const& n = tree_->nodes[static_cast<std::size_t>(it->second)];
  return MctsNodeView{n.point,      n.depth,    n.visits,    static_cast<int>(n.children.size()),
                      n.expansions, n.dead_end, n.exhausted, tree_->value(n),
                      n.in_flight};
}

std::size_t MctsStrategy::node_count() const {
  return tree_->nodes.empty() ? 0 : tree_->nodes.size() - 1;
}

ActionMemory const& MctsStrategy::memory() const {
  return *tree_->memory;
}

std::unique_ptr<Strategy> make_mcts_strategy(MctsConfig config, std::shared_ptr<ActionMemory> memory) {
  return std::make_unique<MctsStrategy>(config, std::move(memory));
}

}  // namespace kopt
