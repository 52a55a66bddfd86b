// RunEvaluations: a source search's evaluations, deduplicated, budgeted, recorded and weighed by the
// guardrail; a node's brief knob tuning runs the search module's MCTS over the source's tuning space.
#include "source_search/run_evaluations.hpp"

#include <fmt/format.h>

#include <map>
#include <memory>

#include "kopt/compile.hpp"
#include "kopt/generate.hpp"
#include "kopt/optimize_space.hpp"

namespace kopt::source_search_detail {
namespace {

// One knob tuning in progress: what the objective records and the strategy wrapper remembers.
struct Tuning {
  RunEvaluations& run;
  TuningSearchSpace& space;
  std::string const& source;
  TaskSpec const& task;
  std::vector<std::string> const& flags;
  std::size_t node = 0;
  std::optional<CandidateId> first_parent;
  std::string first_action;
  std::optional<Point> parent;  // the current proposal's
  std::string action;
  std::map<Point, CandidateId> ids;
  std::optional<Error> fatal;
  bool out_of_budget = false;
  NodeTuning result;
};

// Folds one evaluated point into the node's result (the first point decides whether the source works).
void note(NodeTuning& result, RunEvaluations::Evaluated const& evaluated, std::string const& config,
          std::size_t error_bytes) {
  bool const first = result.points == 0;
  ++result.points;
  if (first) {
    result.evaluated = true;
    result.status = evaluated.record.status;
    result.first_candidate = evaluated.candidate;
    if (evaluated.record.status != CandidateStatus::ok) {
      result.message = head_lines(evaluated.record.message, error_bytes);
      result.errors = evaluated.report ? error_excerpt(*evaluated.report, error_bytes) : result.message;
    }
  }
  std::optional<double> const speedup =
      evaluated.record.status == CandidateStatus::ok ? evaluated.record.geomean_speedup : std::nullopt;
  bool const better = speedup && (!result.best_speedup || *speedup > *result.best_speedup);
  if (!first && !better) return;
  if (better) result.best_speedup = speedup;
  // The best so far; until one verifies, the first point (so that a failed node still names a candidate).
  result.best_candidate = evaluated.candidate;
  result.best_config = config;
  result.best_record = evaluated.record;
  result.reward = reward(evaluated.outcome);
}

class TuningObjective final : public Objective {
 public:
  TuningObjective(Tuning& tuning, std::size_t error_bytes) : t_(tuning), error_bytes_(error_bytes) {}

  Outcome evaluate(Point const& point) override {
    if (t_.fatal || t_.out_of_budget) return stopped();
    Configuration const config = TuningSearchSpace::to_configuration(point);
    auto input = materialise(t_.space.space(), config, t_.source, t_.task, t_.flags);
    if (!input) {
      t_.fatal = input.error();
      return stopped();
    }
    std::optional<CandidateId> parent = t_.first_parent;
    std::string action = t_.first_action;
    if (t_.result.points > 0) {
      parent.reset();
      action = t_.action;
      if (t_.parent) {
        if (auto it = t_.ids.find(*t_.parent); it != t_.ids.end()) parent = it->second;
      }
    }
    auto evaluated = t_.run.evaluate(*input, parent, action, t_.node);
    if (!evaluated) {
      t_.fatal = evaluated.error();
      return stopped();
    }
    if (!*evaluated) {
      t_.out_of_budget = true;
      return stopped();
    }
    if ((*evaluated)->record.status != CandidateStatus::ok)
      (void)t_.space.learn(config, (*evaluated)->record.status, (*evaluated)->record.message);
    t_.ids[point] = (*evaluated)->candidate;
    note(t_.result, **evaluated, input->name, error_bytes_);
    return (*evaluated)->outcome;
  }

 private:
  static Outcome stopped() { return Outcome{CandidateStatus::compile_error, {}, {}, {}, "stopped"}; }
  Tuning& t_;
  std::size_t error_bytes_;
};

// The search module's strategy, with each proposal remembered for the objective; stops when the run must.
class RecordingStrategy final : public Strategy {
 public:
  RecordingStrategy(std::unique_ptr<Strategy> inner, Tuning& tuning) : inner_(std::move(inner)), t_(tuning) {}
  std::string_view name() const override { return inner_->name(); }
  void start(SearchSpace const& space, std::uint64_t seed) override { inner_->start(space, seed); }
  std::optional<Proposal> propose(SearchHistory const& history) override {
    if (t_.fatal || t_.out_of_budget) return std::nullopt;
    auto proposal = inner_->propose(history);
    if (proposal) {
      t_.parent = proposal->parent;
      t_.action = proposal->action;
    }
    return proposal;
  }
  void observe(Proposal const& proposal, kopt::Evaluation const& evaluation, bool fresh) override {
    inner_->observe(proposal, evaluation, fresh);
  }

 private:
  std::unique_ptr<Strategy> inner_;
  Tuning& t_;
};

}  // namespace

RunEvaluations::RunEvaluations(TaskSpec const& task, SourceSearchOptions const& options,
                               CandidateEvaluator& evaluator, RunLog& log)
    : task_(task),
      options_(options),
      evaluator_(evaluator),
      log_(log),
      target_(evaluator.target()),
      started_(std::chrono::steady_clock::now()) {}

bool RunEvaluations::exhausted() const {
  return !exhausted_reason().empty();
}

std::string RunEvaluations::exhausted_reason() const {
  if (unique_ >= options_.max_evaluations) return "evaluations";
  if (options_.max_wall_seconds > 0.0 &&
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() >=
          options_.max_wall_seconds)
    return "wall_time";
  return "";
}

Result<std::optional<RunEvaluations::Evaluated>> RunEvaluations::evaluate(CandidateInput const& input,
                                                                          std::optional<CandidateId> parent,
                                                                          std::string const& action,
                                                                          std::size_t node) {
  CandidateKey const key = content_key(input, target_);
  Evaluated evaluated;
  if (auto own = log_.own(key, "screen")) {
    evaluated.record = std::move(*own);
  } else {
    if (exhausted()) return std::optional<Evaluated>();
    auto cached = log_.cached(key, target_);
    if (!cached) return cached.error();
    if (*cached) {
      evaluated.record = std::move(**cached);
      ++from_store_;
    } else {
      auto report = evaluator_.evaluate_one(task_, input, TimingTier::screen);
      if (!report) return report.error();
      evaluated.record = record_with_insights(*report, TimingTier::screen, task_, target_.ceilings);
      evaluated.report = std::move(*report);
      ++evaluated_;
    }
    ++unique_;
    auto id = log_.record(key, input, parent, action, evaluated.record, target_);
    if (!id) return id.error();
  }
  auto id = log_.candidate_id(key);
  if (!id) return make_error(ErrorCode::internal_error, "source search: a recorded candidate has no id");
  evaluated.candidate = *id;
  evaluated.outcome = search_outcome(evaluated.record);
  if (evaluated.outcome.status == CandidateStatus::ok &&
      (!incumbent_ || improves_on(evaluated.outcome, incumbent_->outcome))) {
    incumbent_ = Incumbent{evaluated.outcome, input, *id, node, evaluated.record.geomean_speedup};
  }
  return std::optional<Evaluated>(std::move(evaluated));
}

Result<NodeTuning> RunEvaluations::tune(std::string const& source, std::optional<CandidateId> parent,
                                        std::string const& action, std::size_t budget, std::size_t node) {
  auto space = tuning_search_space_for(source, task_, "candidate");
  if (!space) {  // an edit that broke the annotations: the model is told like a compile error
    NodeTuning failed;
    failed.evaluated = true;
    failed.status = CandidateStatus::compile_error;
    failed.message = space.error().message;
    failed.errors = "kopt could not read the kernel's tuning annotations: " + space.error().message;
    failed.reward = failure_penalty(failed.status);
    return failed;
  }
  std::size_t const before = unique_;
  if (!*space) {
    CandidateInput input;
    input.name = fmt::format("node{}", node);
    input.source = source;
    input.flags = options_.flags;
    input.mode = detect_mode(source, task_.signature.function).value_or(CandidateMode::kernel);
    auto evaluated = evaluate(input, parent, action, node);
    if (!evaluated) return evaluated.error();
    NodeTuning result;
    if (*evaluated) note(result, **evaluated, input.name, options_.error_excerpt_bytes);
    result.added = unique_ - before;
    return result;
  }
  Tuning tuning{*this, **space, source, task_, options_.flags, node, parent, action};
  tuning.result.tunable = true;
  TuningObjective objective(tuning, options_.error_excerpt_bytes);
  // The source's default configuration first: whether the edit works is decided there.
  if (auto start = (*space)->start_point(); start && (*space)->is_valid(*start)) {
    (void)objective.evaluate(*start);
    if (tuning.fatal) return *tuning.fatal;
    if (!tuning.result.evaluated || tuning.result.status != CandidateStatus::ok || budget <= 1) {
      tuning.result.added = unique_ - before;
      return std::move(tuning.result);
    }
  }
  RecordingStrategy strategy(make_mcts_strategy(options_.mcts), tuning);
  auto search = run_search(**space, objective, strategy, Budget{budget, 0.0}, options_.seed);
  if (tuning.fatal) return *tuning.fatal;
  if (!search && tuning.result.points == 0) return search.error();
  tuning.result.added = unique_ - before;
  return std::move(tuning.result);
}

Result<std::optional<CandidateReport>> RunEvaluations::confirm() {
  if (!incumbent_) return std::optional<CandidateReport>();
  auto report = evaluator_.evaluate_one(task_, incumbent_->input, TimingTier::confirm);
  if (!report) return report.error();
  ++evaluated_;
  auto const recorded = record_with_insights(*report, TimingTier::confirm, task_, target_.ceilings);
  auto id = log_.record(content_key(incumbent_->input, target_), incumbent_->input, std::nullopt, "",
                        recorded, target_);
  if (!id) return id.error();
  return std::optional<CandidateReport>(std::move(*report));
}

}  // namespace kopt::source_search_detail
