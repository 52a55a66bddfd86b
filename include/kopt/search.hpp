// Search over an abstract tuning space: points, objectives, strategies and the driver.
// The search knows nothing about how knobs are declared: a space is a set of dimensions, each with
// a number of values, and a point is one value index per dimension. See docs/search.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/candidate_status.hpp"
#include "kopt/result.hpp"

namespace kopt {

// ---- spaces --------------------------------------------------------------------------------------

// One value index per dimension, each in [0, Dimension::size).
using Point = std::vector<int>;

std::string to_string(Point const& point);  // "[1,0,3]"

struct Dimension {
  std::string name;
  int size = 0;  // number of values (>= 1)
};

// A knob move from one point to a neighbour: name like "BLOCK:+1", and the resulting point.
struct Action {
  std::string name;
  Point target;
};

class SearchSpace {
 public:
  virtual ~SearchSpace() = default;
  virtual std::vector<Dimension> dimensions() const = 0;
  // Whether the point satisfies the space's constraints (it is in range by contract of the caller).
  virtual bool is_valid(Point const& point) const = 0;
  // Moves from `point` to valid neighbours, in a deterministic order.
  virtual std::vector<Action> actions(Point const& point) const = 0;
  // Where a local search starts (for example the task's default knobs); nullopt: anywhere.
  virtual std::optional<Point> start_point() const { return std::nullopt; }
};

// Mixed-radix enumeration of every point (valid or not) of a list of dimensions; the last
// dimension varies fastest.
std::uint64_t point_count(std::vector<Dimension> const& dims);
Point point_at(std::vector<Dimension> const& dims, std::uint64_t index);
std::uint64_t index_of(std::vector<Dimension> const& dims, Point const& point);
bool in_range(std::vector<Dimension> const& dims, Point const& point);

// A dense grid with an optional constraint. Actions are "<name>:+1" and "<name>:-1" on every
// dimension, kept when the neighbour is in range and valid.
class GridSpace final : public SearchSpace {
 public:
  using Constraint = std::function<bool(Point const&)>;
  explicit GridSpace(std::vector<Dimension> dims, Constraint constraint = {},
                     std::optional<Point> start = std::nullopt);
  std::vector<Dimension> dimensions() const override { return dims_; }
  bool is_valid(Point const& point) const override;
  std::vector<Action> actions(Point const& point) const override;
  std::optional<Point> start_point() const override { return start_; }

 private:
  std::vector<Dimension> dims_;
  Constraint constraint_;
  std::optional<Point> start_;
};

// ---- objectives ----------------------------------------------------------------------------------

// What evaluating one point produced. For an ok candidate the three vectors have one entry per
// timed size case (iqr may be empty: no noise information).
struct Outcome {
  CandidateStatus status = CandidateStatus::ok;
  std::vector<double> size_medians_us;
  std::vector<double> size_iqr_us;
  std::vector<double> reference_us;  // the reference's median on each size case
  std::string detail;                // free text (compiler message, first failing size, ...)
};

struct Proposal {
  Point point;
  std::optional<Point> parent;  // the point this one was derived from, if any
  std::string action;
};

class Objective {
 public:
  virtual ~Objective() = default;
  virtual Outcome evaluate(Point const& point) = 0;
  // Several proposals at once (Budget::concurrent_evaluations > 1: one per GPU or farm worker), one
  // outcome per proposal, in order. By default one evaluate() after the other.
  virtual std::vector<Outcome> evaluate_batch(std::vector<Proposal> const& proposals);
};

// Geometric mean over sizes of reference_us / median_us; nullopt unless the outcome is ok and its
// vectors are consistent (same non-zero length, positive times).
std::optional<double> geomean_speedup(Outcome const& outcome);

// Why a well-formed `ok` outcome can be rejected: empty text when consistent, else what is wrong.
std::string outcome_problem(Outcome const& outcome);

// Reward used by the strategies: log(geomean speedup) for ok candidates, a fixed penalty per
// failure status otherwise (table in docs/search.md). Penalties sit below any realistic ok reward.
double failure_penalty(CandidateStatus status) noexcept;
double reward(Outcome const& outcome);

// Incumbent guardrail: `candidate` replaces `incumbent` only if it is ok, no slower on any size
// beyond measured noise, and strictly faster overall (geomean). Per size i:
//   candidate_median[i] - max(noise[i], min_relative_noise * incumbent_median[i]) <= incumbent_median[i]
// where noise[i] = (candidate_iqr[i] + incumbent_iqr[i]) / 2.
struct GuardrailConfig {
  double min_relative_noise = 0.01;
};
bool improves_on(Outcome const& candidate, Outcome const& incumbent, GuardrailConfig const& config = {});

// A deterministic, rugged objective for tests and benchmarks. Speedup on size s of point p is
//   base * prod_d bump_d(p) * (1 + ruggedness * hash_noise(p)) * size_factor_s(p)
// where bump_d has a main and a secondary peak whose centre drifts with the previous dimension
// (so dimensions interact). Hash-chosen boxes return compile_error / launch_error / wrong_output,
// and `failure_rate` scatters single failing points. Measurement noise (relative, seeded) is a
// function of (point, noise_seed): order of evaluation never matters.
struct SyntheticSpec {
  std::vector<Dimension> dims;
  std::uint64_t landscape_seed = 1;
  int size_cases = 3;
  double ruggedness = 0.1;         // amplitude of the per-point hash noise
  double peak_gain = 1.0;          // height of each dimension's main peak (speedup factor - 1)
  int failure_boxes = 3;           // hyper-rectangles of failing points
  double failure_rate = 0.0;       // probability that a point outside the boxes fails anyway
  double measurement_noise = 0.0;  // relative noise on medians (0: exact)
  std::uint64_t noise_seed = 0;
};

class SyntheticEvaluator final : public Objective {
 public:
  explicit SyntheticEvaluator(SyntheticSpec spec);
  Outcome evaluate(Point const& point) override;
  // The outcome without measurement noise (what a perfect measurement would give).
  Outcome exact(Point const& point) const;
  SyntheticSpec const& spec() const noexcept { return spec_; }
  std::size_t calls() const noexcept { return calls_; }

 private:
  Outcome compute(Point const& point, bool noisy) const;
  SyntheticSpec spec_;
  std::size_t calls_ = 0;
};

// Rugged landscapes used by the ablation test and kopt-bench-search (docs/search.md).
std::vector<SyntheticSpec> rugged_landscapes();

// ---- history and strategies ----------------------------------------------------------------------

// One evaluation, in the order it happened.
struct Evaluation {
  std::size_t index = 0;
  Point point;
  std::optional<std::size_t> parent;  // index of the evaluation this one was derived from
  std::string action;                 // action taken from the parent ("" for roots and jumps)
  Outcome outcome;
  double reward = 0.0;
  bool became_incumbent = false;
};

// Everything evaluated so far, with a lookup by point.
class SearchHistory {
 public:
  std::vector<Evaluation> const& evaluations() const noexcept { return evaluations_; }
  Evaluation const* find(Point const& point) const;
  bool contains(Point const& point) const { return find(point) != nullptr; }
  Evaluation const& add(Evaluation evaluation);  // sets evaluation.index

 private:
  std::vector<Evaluation> evaluations_;
  std::map<Point, std::size_t> by_point_;
};

// A search strategy proposes one point at a time and is told each result. It should not propose a
// point already in the history; if it does, the driver answers from the cache (no evaluation) and
// calls observe with fresh = false. With concurrent evaluations, propose is called several times before
// the outcomes come back (each proposal is observed later, in proposal order): a strategy must not
// propose a point it has proposed and not yet been told about.
class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual std::string_view name() const = 0;
  virtual void start(SearchSpace const& space, std::uint64_t seed) = 0;
  // Next point to evaluate; nullopt when the strategy has nothing left to propose.
  virtual std::optional<Proposal> propose(SearchHistory const& history) = 0;
  virtual void observe(Proposal const& proposal, Evaluation const& evaluation, bool fresh) = 0;
};

// Every valid point once, in mixed-radix order.
std::unique_ptr<Strategy> make_exhaustive_strategy();
// Valid points uniformly at random, without replacement.
std::unique_ptr<Strategy> make_random_strategy();
// Best-improvement hill climbing over the space's actions; restarts from a random unevaluated
// point at a local optimum.
std::unique_ptr<Strategy> make_hill_climbing_strategy();

// Search memory: what an action name has done before (how often tried, mean reward gain over its
// parent). The in-memory implementation learns during a run; a persistent one comes from the store.
struct ActionStats {
  int tries = 0;
  double mean_gain = 0.0;
};
class ActionMemory {
 public:
  virtual ~ActionMemory() = default;
  virtual ActionStats stats(std::string_view action) const = 0;
  virtual void record(std::string_view action, double gain) = 0;
};
class InMemoryActionMemory final : public ActionMemory {
 public:
  ActionStats stats(std::string_view action) const override;
  void record(std::string_view action, double gain) override;

 private:
  std::map<std::string, ActionStats, std::less<>> stats_;
};

// Every MCTS constant; docs/search.md explains each default.
struct MctsConfig {
  double exploration = 0.3;          // UCT constant c, in reward units (log speedup)
  double max_backup_weight = 0.5;    // node value = (1-w) * mean + w * max of rewards below it
  double widening_k = 1.0;           // children allowed = ceil(k_depth * N^alpha)
  double widening_alpha = 0.5;       //   N = the node's visits
  double root_widening_boost = 2.0;  // k_depth = k * (1 + boost * depth_decay^depth): wider near root
  double depth_decay = 0.5;          //
  int dead_end_window = 3;           // m: a node whose last m expansions all failed stops expanding
  double prior_pseudo_count = 2.0;   // shrinks an action's remembered mean gain towards 0
  double prior_weight = 1.0;         // 0: memory ignored; expansion order is then random
  double roots_k = 2.0;              // trees (random start points) allowed = ceil(roots_k * T^roots_alpha),
  double roots_alpha = 0.4;          //   T = evaluations so far; the forest widens slowly
};

// Children a node with `visits` visits at `depth` may have under progressive widening.
int allowed_children(MctsConfig const& config, int visits, int depth);
// A node's value from the rewards backed up through it: (1 - w) * mean + w * max, w = max_backup_weight
// (0 visits count as 1).
double backed_up_value(MctsConfig const& config, double reward_sum, int visits, double max_reward);
// UCT's score of a child: its value + c * sqrt(ln(parent visits) / child visits) (0 visits count as 1).
double uct_score(MctsConfig const& config, double child_value, int parent_visits, int child_visits);

// Read-only view of one MCTS node, for tests and diagnostics.
struct MctsNodeView {
  Point point;
  int depth = 0;
  int visits = 0;
  int children = 0;
  int expansions = 0;  // children evaluated (including failed ones)
  bool dead_end = false;
  bool exhausted = false;
  double value = 0.0;
  int in_flight = 0;  // proposals at or below it whose outcomes have not come back (virtual loss)
};

class MctsStrategy final : public Strategy {
 public:
  explicit MctsStrategy(MctsConfig config = {}, std::shared_ptr<ActionMemory> memory = nullptr);
  ~MctsStrategy() override;
  MctsStrategy(MctsStrategy const&) = delete;
  MctsStrategy& operator=(MctsStrategy const&) = delete;

  std::string_view name() const override { return "mcts"; }
  void start(SearchSpace const& space, std::uint64_t seed) override;
  std::optional<Proposal> propose(SearchHistory const& history) override;
  void observe(Proposal const& proposal, Evaluation const& evaluation, bool fresh) override;

  std::optional<MctsNodeView> node(Point const& point) const;
  std::size_t node_count() const;
  ActionMemory const& memory() const;

 private:
  struct Tree;
  std::unique_ptr<Tree> tree_;
};

std::unique_ptr<Strategy> make_mcts_strategy(MctsConfig config = {},
                                             std::shared_ptr<ActionMemory> memory = nullptr);

// ---- the strategy registry -----------------------------------------------------------------------

// What building a strategy may use; a strategy takes what its capabilities say and ignores the rest.
struct StrategySettings {
  MctsConfig mcts;                       // MCTS constants
  std::shared_ptr<ActionMemory> memory;  // null: a fresh in-memory one (learns_from_memory strategies)
};

// One search strategy: its names, what it can do, and how to build it. Each strategy lives in
// src/search/<name>_strategy.cpp and is listed once in src/search/strategy_registry.cpp; the CLI's
// choices, the optimize driver's batching and the tests read these fields, never the name.
struct SearchStrategy {
  std::string_view name;                   // what `--search` takes and a run records
  std::vector<std::string_view> aliases;   // other spellings make_strategy accepts (not offered on the CLI)
  std::string_view description;            // one line, for help and docs
  bool proposals_ignore_outcomes = false;  // observe changes nothing: proposals may be asked for ahead
                                           // and compiled as a batch
  bool uses_seed = false;                  // another seed proposes other points
  bool follows_actions = false;            // proposals are the space's actions from an evaluated parent
  bool learns_from_memory = false;         // reads and teaches StrategySettings::memory
  std::unique_ptr<Strategy> (*make)(StrategySettings const& settings) = nullptr;
};

// The registry: every strategy exactly once, in a fixed order (the order of the CLI's choices).
std::span<SearchStrategy const> search_strategies();
// By name or alias; nullptr for an unknown name.
SearchStrategy const* find_search_strategy(std::string_view name);
// The registry's names (not the aliases), in registry order: the CLI's choices.
std::vector<std::string> search_strategy_names();
// The named strategy with default settings; nullptr for an unknown name.
std::unique_ptr<Strategy> make_strategy(std::string_view name);

// ---- driver --------------------------------------------------------------------------------------

struct Budget {
  std::size_t max_evaluations = 100;  // unique evaluations
  double max_wall_seconds = 0.0;      // 0: no time limit
  // Proposals evaluated together (Objective::evaluate_batch): the evaluator's GPUs or farm workers. The
  // strategy is asked for up to this many points before it observes their outcomes (MCTS: virtual loss).
  std::size_t concurrent_evaluations = 1;
};

enum class StopReason { evaluations, wall_time, exhausted, stalled };
std::string_view to_string(StopReason reason) noexcept;

struct SearchResult {
  std::vector<Evaluation> trajectory;      // every unique evaluation, in order
  std::optional<std::size_t> incumbent;    // index into trajectory
  std::optional<std::size_t> best_reward;  // index of the highest reward (ignores the guardrail)
  std::size_t repeated_proposals = 0;      // proposals answered from the cache
  StopReason stop_reason = StopReason::exhausted;
  double elapsed_seconds = 0.0;
};

// Runs `strategy` on `space` until the budget is spent or the strategy has nothing left. Never
// evaluates a point twice; deterministic for a given seed (unless the wall-time limit stops it). With
// concurrent_evaluations N > 1, proposals are gathered N at a time (never past the budget), evaluated as
// one batch, and observed in proposal order.
// Errors: an empty or malformed space, a zero budget, a proposal that is out of range or invalid,
// an ok outcome whose vectors are inconsistent.
Result<SearchResult> run_search(SearchSpace const& space, Objective& objective, Strategy& strategy,
                                Budget const& budget, std::uint64_t seed,
                                GuardrailConfig const& guardrail = {});

}  // namespace kopt
