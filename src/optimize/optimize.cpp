// optimize() and resume(): the tuning space searched by a strategy, every point materialised, answered
// from the store when it holds the candidate already, else evaluated, and recorded.
#include "kopt/optimize.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <set>
#include <thread>

#include "energy_meter.hpp"
#include "kopt/optimize_space.hpp"
#include "run_action_memory.hpp"

namespace kopt {

bool is_optimize_strategy(std::string_view name) noexcept {
  return find_search_strategy(name) != nullptr;
}

namespace {

// The search's most recent proposal, shared by the strategy wrapper (which sees it) and the objective
// (which records it).
struct SearchState {
  std::optional<Point> parent;
  std::string action;
  std::map<Point, CandidateId> ids;
  std::optional<Error> fatal;  // kopt could not go on: the search is stopped and this is returned
  OptimizeProgress progress;
  std::size_t skipped_invalid = 0;
  std::size_t learned_invalid = 0;
  // Proposals the strategy has already made that the search has not asked for yet (strategies whose
  // proposals do not depend on outcomes: exhaustive, random). The objective evaluates them in one batch
  // with the point asked for, so their compiles run in parallel and overlap the GPU work.
  std::vector<Point> upcoming;
  // Strategies that choose one point at a time (no lookahead), with evaluations left after this one:
  // the objective compiles the neighbours of the point ahead.
  bool compile_neighbours = false;
};

// Candidates per evaluate() call of outcome-independent strategies: one per core (4..32). They look
// four batches ahead: the batches after the current one compile while the current one is on the GPU, so
// the compilers never run dry at a batch boundary (compile-bound searches, docs/benchmarks.md "Where the
// time goes"; the task's reference is built before the search starts, run() below).
std::size_t lookahead_batch() {
  return std::clamp<std::size_t>(std::thread::hardware_concurrency(), 4, 32);
}

struct Context {
  TaskSpec const& task;
  std::string const& source;
  OptimizeOptions const& options;
  CandidateEvaluator& evaluator;
  EvaluationTarget target;
  RunLog& log;
  TuningSearchSpace& space;
  SearchState& state;
  OptimizeResult& result;
  optimize_detail::EnergyMeter& meter;
};

// A fresh (or another run's) evaluation made this run's: its energy measured when the objective needs it,
// its objective score computed.
Status complete(RecordedEvaluation& recorded, CandidateInput const& candidate, TimingTier tier,
                Context& context) {
  if (auto status = context.meter.annotate(recorded, candidate, tier); !status) return status;
  recorded.objective_score = kopt::objective_score(recorded, context.options.objective);
  return Ok{};
}

class StoreObjective final : public Objective {
 public:
  explicit StoreObjective(Context& context) : c_(context) {}

  Outcome evaluate(Point const& point) override {
    Configuration const config = TuningSearchSpace::to_configuration(point);
    auto candidate = materialise(c_.space.space(), config, c_.source, c_.task, c_.options.flags);
    if (!candidate) return stop(candidate.error());
    CandidateKey const key = content_key(*candidate, c_.target);
    std::optional<CandidateId> parent;
    if (c_.state.parent) {
      if (auto it = c_.state.ids.find(*c_.state.parent); it != c_.state.ids.end()) parent = it->second;
    }

    RecordedEvaluation recorded;
    bool record = true;
    bool learned = false;                      // a batch already learned from it
    if (prefetched_.erase(key.value()) > 0) {  // evaluated and recorded with an earlier batch
      recorded = *c_.log.own(key, "screen");
      record = false;
      learned = true;
    } else if (auto own = c_.log.own(key, "screen")) {  // replaying this run (resume)
      recorded = std::move(*own);
      record = false;
      ++c_.result.from_store;
    } else {
      auto cached = c_.log.cached(key, c_.target);  // any run: the dedupe cache
      if (!cached) return stop(cached.error());
      if (*cached) {
        recorded = std::move(**cached);
        ++c_.result.from_store;
      } else if (!c_.state.upcoming.empty()) {
        std::vector<Asked> asked;
        asked.push_back(Asked{*candidate, config, key, c_.state.parent, c_.state.action});
        if (auto status = evaluate_together(std::move(asked)); !status) return stop(status.error());
        prefetched_.erase(key.value());
        recorded = *c_.log.own(key, "screen");
        record = false;
        learned = true;
      } else {
        if (c_.state.compile_neighbours) compile_neighbours_ahead(point);
        auto report = c_.evaluator.evaluate_one(c_.task, *candidate, TimingTier::screen);
        if (!report) return stop(report.error());
        account(report->phases);
        recorded = record_with_insights(*report, TimingTier::screen, c_.task, c_.target.ceilings);
        ++c_.result.evaluated;
      }
    }
    if (record) {
      if (auto status = complete(recorded, *candidate, TimingTier::screen, c_); !status)
        return stop(status.error());
      auto id = c_.log.record(key, *candidate, parent, c_.state.action, recorded, c_.target);
      if (!id) return stop(id.error());
    }
    if (auto id = c_.log.candidate_id(key)) c_.state.ids[point] = *id;
    if (!learned && recorded.status != CandidateStatus::ok &&
        c_.space.learn(config, recorded.status, recorded.message))
      ++c_.state.learned_invalid;

    OptimizeProgress& p = c_.state.progress;
    p.config = candidate->name;
    p.status = recorded.status;
    p.speedup = recorded.status == CandidateStatus::ok ? recorded.geomean_speedup : std::nullopt;
    p.score = recorded.status == CandidateStatus::ok ? recorded.objective_score : std::nullopt;
    bool const by_score = c_.options.objective != OptimizeObjective::runtime;
    std::optional<double> const value = by_score ? p.score : p.speedup;
    std::optional<double> const best = by_score ? p.best_score : p.best_speedup;
    if (value && (!best || *value > *best)) {
      p.best_speedup = p.speedup;
      p.best_score = p.score;
      p.best_config = candidate->name;
    }
    return search_outcome(recorded, c_.options.objective);
  }

  // Several proposals at once (the evaluator's GPUs or farm workers, CandidateEvaluator::concurrency):
  // those that neither this run nor the store holds go to the evaluator in one call, then each proposal is
  // answered as evaluate() answers it (from what that call recorded), in order.
  std::vector<Outcome> evaluate_batch(std::vector<Proposal> const& proposals) override {
    std::vector<Asked> asked;
    std::set<std::string> seen;
    for (Proposal const& proposal : proposals) {
      auto needed = unevaluated(proposal.point, seen);
      if (!needed) return stopped(proposals.size(), needed.error());
      if (!*needed) continue;
      (*needed)->parent = proposal.parent;
      (*needed)->action = proposal.action;
      asked.push_back(std::move(**needed));
    }
    if (!asked.empty()) {
      if (auto status = evaluate_together(std::move(asked)); !status)
        return stopped(proposals.size(), status.error());
    }
    std::vector<Outcome> outcomes;
    outcomes.reserve(proposals.size());
    for (Proposal const& proposal : proposals) {
      c_.state.parent = proposal.parent;
      c_.state.action = proposal.action;
      outcomes.push_back(evaluate(proposal.point));
    }
    return outcomes;
  }

 private:
  // A candidate the search asked for, with where it came from (recorded with it).
  struct Asked {
    CandidateInput candidate;
    Configuration config;
    CandidateKey key;
    std::optional<Point> parent;
    std::string action;
  };

  // The candidate at `point` when it needs an evaluation: not already in this batch (`seen`, which it joins),
  // nor recorded by this run (an earlier batch, a resumed session), nor held by the store (which answers it
  // when the search asks); nullopt otherwise. Error: it cannot be materialised, the store cannot be read.
  Result<std::optional<Asked>> unevaluated(Point const& point, std::set<std::string>& seen) {
    Configuration config = TuningSearchSpace::to_configuration(point);
    auto candidate = materialise(c_.space.space(), config, c_.source, c_.task, c_.options.flags);
    if (!candidate) return candidate.error();
    CandidateKey key = content_key(*candidate, c_.target);
    if (!seen.insert(key.value()).second || prefetched_.contains(key.value()) || c_.log.own(key, "screen"))
      return std::optional<Asked>{};
    auto cached = c_.log.cached(key, c_.target);
    if (!cached) return cached.error();
    if (*cached) return std::optional<Asked>{};
    return std::optional<Asked>{Asked{std::move(*candidate), std::move(config), std::move(key), {}, {}}};
  }

  // Evaluates the asked candidates and the next upcoming proposals that neither this run nor the store
  // holds (up to max(lookahead_batch(), asked) in all) as one batch, hands the rest of the upcoming ones to
  // the evaluator to compile meanwhile, records every result in order (the asked ones with their parents
  // and actions; upcoming ones have none: only outcome-independent strategies look ahead) and learns every
  // resource failure at once, so the rest of the queue is pruned by them. A kill loses at most the batch in
  // flight. A point of the batch that a failure in the same batch prunes was evaluated for nothing: the
  // price of compiling ahead.
  Status evaluate_together(std::vector<Asked> asked) {
    std::set<std::string> seen;
    for (Asked const& a : asked) seen.insert(a.key.value());
    std::vector<CandidateInput> next_batch;  // compiled ahead, evaluated by the next call
    std::size_t const batch_size = std::max(lookahead_batch(), asked.size());
    for (Point const& point : c_.state.upcoming) {
      auto needed = unevaluated(point, seen);
      if (!needed) return needed.error();
      if (!*needed) continue;
      if (asked.size() >= batch_size) {
        next_batch.push_back(std::move((*needed)->candidate));
        continue;
      }
      asked.push_back(std::move(**needed));
    }
    std::vector<CandidateInput> batch;
    batch.reserve(asked.size());
    for (Asked const& a : asked) batch.push_back(a.candidate);
    if (!next_batch.empty()) {
      // The batch first: compiles start in the order they are asked for, and this batch is needed first
      // (asking again for one already queued changes nothing).
      c_.evaluator.compile_ahead(c_.task, batch);
      c_.evaluator.compile_ahead(c_.task, next_batch);
    }
    auto reports = c_.evaluator.evaluate(c_.task, batch, TimingTier::screen);
    if (!reports) return reports.error();
    if (reports->size() != batch.size()) {
      return make_error(ErrorCode::internal_error, "candidate evaluator: " + std::to_string(batch.size()) +
                                                       " candidates sent, " +
                                                       std::to_string(reports->size()) + " reports back");
    }
    for (std::size_t i = 0; i < asked.size(); ++i) {
      account((*reports)[i].phases);
      auto recorded = record_with_insights((*reports)[i], TimingTier::screen, c_.task, c_.target.ceilings);
      if (auto status = complete(recorded, batch[i], TimingTier::screen, c_); !status) return status;
      std::optional<CandidateId> parent;
      if (asked[i].parent) {
        if (auto it = c_.state.ids.find(*asked[i].parent); it != c_.state.ids.end()) parent = it->second;
      }
      auto id = c_.log.record(asked[i].key, batch[i], parent, asked[i].action, recorded, c_.target);
      if (!id) return id.error();
      prefetched_.insert(asked[i].key.value());
      ++c_.result.evaluated;
      if (recorded.status != CandidateStatus::ok &&
          c_.space.learn(asked[i].config, recorded.status, recorded.message))
        ++c_.state.learned_invalid;
    }
    return Ok{};
  }

  // Strategies that choose one point at a time (greedy, MCTS) mostly ask next for a neighbour of a
  // point they chose: while this one is on the GPU, its neighbours that neither this run nor the store
  // holds are compiled on the idle cores (at most lookahead_batch()). The search itself is unchanged;
  // a neighbour never asked for costs only idle CPU time.
  void compile_neighbours_ahead(Point const& point) {
    std::vector<CandidateInput> ahead;
    for (Action const& action : c_.space.actions(point)) {
      if (ahead.size() >= lookahead_batch()) break;
      auto candidate = materialise(c_.space.space(), TuningSearchSpace::to_configuration(action.target),
                                   c_.source, c_.task, c_.options.flags);
      if (!candidate) continue;  // the search reports it when it gets there
      CandidateKey const key = content_key(*candidate, c_.target);
      if (c_.log.own(key, "screen")) continue;
      auto cached = c_.log.cached(key, c_.target);
      if (!cached || *cached) continue;
      ahead.push_back(std::move(*candidate));
    }
    if (!ahead.empty()) c_.evaluator.compile_ahead(c_.task, ahead);
  }

  void account(PhaseTimes const& phases) {
    SearchTimeAccount& time = c_.result.search_time;
    if (time.evaluations == 0) {
      time.first_result_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_).count();
    }
    time.add(phases);
  }

  Outcome stop(Error error) {
    if (!c_.state.fatal) c_.state.fatal = std::move(error);
    return Outcome{CandidateStatus::compile_error, {}, {}, {}, "stopped"};
  }
  std::vector<Outcome> stopped(std::size_t count, Error error) {
    Outcome const outcome = stop(std::move(error));
    return std::vector<Outcome>(count, outcome);
  }
  Context& c_;
  std::set<std::string> prefetched_;  // keys recorded by a batch, not yet asked for by the search
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// Forwards to the real strategy; remembers each proposal for the objective, skips points that a
// learned resource failure now prunes, stops when kopt cannot go on, reports progress.
class TrackingStrategy final : public Strategy {
 public:
  TrackingStrategy(std::unique_ptr<Strategy> inner, Context& context,
                   OptimizeProgressCallback const& progress)
      : inner_(std::move(inner)), c_(context), progress_(progress) {
    // Their proposals never depend on outcomes (observe does nothing), so asking ahead changes nothing
    // in what they propose or in which order.
    if (SearchStrategy const* info = find_search_strategy(inner_->name());
        info != nullptr && info->proposals_ignore_outcomes)
      lookahead_ = 4 * lookahead_batch();
  }

  std::string_view name() const override { return inner_->name(); }
  void start(SearchSpace const& space, std::uint64_t seed) override { inner_->start(space, seed); }

  std::optional<Proposal> propose(SearchHistory const& history) override {
    constexpr int kMaxSkips = 100000;
    for (int skips = 0; skips < kMaxSkips; ++skips) {
      if (c_.state.fatal) return std::nullopt;
      auto proposal = next(history);
      if (!proposal) return std::nullopt;
      if (c_.space.is_valid(proposal->point)) {
        c_.state.parent = proposal->parent;
        c_.state.action = proposal->action;
        c_.state.upcoming.clear();
        for (Proposal const& ahead : queue_) {
          if (c_.space.is_valid(ahead.point) && !history.contains(ahead.point))
            c_.state.upcoming.push_back(ahead.point);
        }
        c_.state.compile_neighbours =
            lookahead_ == 0 && history.evaluations().size() + 1 < c_.options.max_evaluations;
        ++in_flight_;
        return proposal;
      }
      // Pruned after the strategy chose it (a resource failure learned since): tell it, never evaluate.
      ++c_.state.skipped_invalid;
      kopt::Evaluation skipped;
      skipped.point = proposal->point;
      skipped.outcome.status = CandidateStatus::launch_error;
      skipped.outcome.detail = c_.space.why_invalid(proposal->point).value_or("");
      skipped.reward = failure_penalty(skipped.outcome.status);
      inner_->observe(*proposal, skipped, false);
    }
    return std::nullopt;
  }

  void observe(Proposal const& proposal, kopt::Evaluation const& evaluation, bool fresh) override {
    if (in_flight_ > 0) --in_flight_;
    inner_->observe(proposal, evaluation, fresh);
    if (!fresh || !progress_) return;
    OptimizeProgress& p = c_.state.progress;
    p.evaluations = evaluation.index + 1;
    p.evaluated = c_.result.evaluated;
    p.from_store = c_.result.from_store;
    progress_(p);
  }

 private:
  // The inner strategy's next proposal; with lookahead, the queue is topped up first (never past the
  // evaluations the budget has left once the proposals in flight are counted, so nothing is evaluated that
  // the search will not ask for).
  std::optional<Proposal> next(SearchHistory const& history) {
    if (lookahead_ == 0) return inner_->propose(history);
    std::size_t const used = history.evaluations().size() + in_flight_;
    std::size_t const left = c_.options.max_evaluations > used ? c_.options.max_evaluations - used : 1;
    while (!inner_done_ && queue_.size() < std::min(lookahead_, left)) {
      auto proposal = inner_->propose(history);
      if (!proposal) {
        inner_done_ = true;
        break;
      }
      queue_.push_back(std::move(*proposal));
    }
    if (queue_.empty()) return std::nullopt;
    Proposal proposal = std::move(queue_.front());
    queue_.pop_front();
    return proposal;
  }

  std::unique_ptr<Strategy> inner_;
  Context& c_;
  OptimizeProgressCallback const& progress_;
  std::size_t lookahead_ = 0;  // 0: one proposal at a time
  std::deque<Proposal> queue_;
  bool inner_done_ = false;
  std::size_t in_flight_ = 0;  // proposals handed to the driver and not yet observed (concurrent evaluations)
};

std::unique_ptr<Strategy> make_optimize_strategy(std::string_view name, MctsConfig const& mcts,
                                                 std::shared_ptr<optimize_detail::RunActionMemory> memory) {
  SearchStrategy const* strategy = find_search_strategy(name);
  return strategy ? strategy->make(StrategySettings{mcts, std::move(memory)}) : nullptr;
}

Result<OptimizeResult> run(TaskSpec const& task, std::string const& source, OptimizeOptions const& options,
                           CandidateEvaluator& evaluator, RunLog& log,
                           OptimizeProgressCallback const& progress) {
  std::string const origin =
      options.source_path.empty() ? std::string("candidate") : options.source_path.filename().string();
  auto built = tuning_search_space_for(source, task, origin);
  if (!built) return built.error();
  if (!*built) {
    return make_error(
        ErrorCode::invalid_argument,
        origin + ": no '// kopt:knob' annotations (expected at least one knob to tune; docs/tuning.md)");
  }
  TuningSearchSpace& space = **built;

  auto memory = std::make_shared<optimize_detail::RunActionMemory>(log.memory_prior());
  auto strategy = make_optimize_strategy(options.strategy, options.mcts, memory);
  if (!strategy || !is_optimize_strategy(options.strategy)) {
    return make_error(ErrorCode::invalid_argument,
                      "strategy '" + options.strategy + "': expected mcts, greedy, random or exhaustive");
  }
  OptimizeResult result;
  result.run = log.id();
  SearchState state;
  state.progress.phase = "search";
  state.progress.budget = options.max_evaluations;
  state.progress.objective = options.objective;
  result.objective = options.objective;
  // The task's reference (nvcc, seconds) is built before the search's clock starts, as the worker is
  // started before it: the search's time is spent on configurations (docs/optimize.md).
  auto const setup_started = std::chrono::steady_clock::now();
  if (auto built_trusted = evaluator.build_trusted_code(task); !built_trusted) {
    (void)log.finish(false);
    return built_trusted.error();
  }
  result.search_time.setup_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - setup_started).count();
  optimize_detail::EnergyMeter meter(evaluator, task, options.objective);
  Context context{task, source, options, evaluator, evaluator.target(), log, space, state, result, meter};
  StoreObjective objective(context);
  TrackingStrategy tracking(std::move(strategy), context, progress);
  // As many proposals in flight as the evaluator runs at once (its GPUs, the farm's workers).
  Budget const budget{options.max_evaluations, options.max_wall_seconds,
                      std::max<std::size_t>(evaluator.concurrency(), 1)};
  result.concurrent_evaluations = budget.concurrent_evaluations;
  auto search = run_search(space, objective, tracking, budget, options.seed);
  if (state.fatal || !search) {
    (void)log.finish(false);
    return state.fatal ? *state.fatal : search.error();
  }
  result.points = search->trajectory.size();
  result.stop_reason = std::string(to_string(search->stop_reason));
  result.elapsed_seconds = search->elapsed_seconds;
  result.skipped_invalid = state.skipped_invalid;
  result.learned_invalid = state.learned_invalid;

  if (search->incumbent) {
    kopt::Evaluation const& best = search->trajectory[*search->incumbent];
    Configuration const config = TuningSearchSpace::to_configuration(best.point);
    auto candidate = materialise(space.space(), config, source, task, options.flags);
    if (!candidate) return candidate.error();
    result.incumbent_config = candidate->name;
    if (auto it = state.ids.find(best.point); it != state.ids.end()) result.incumbent = it->second;
    CandidateKey const key = content_key(*candidate, context.target);
    // The outcome's geomean is the objective's score; the runtime speedup is the recorded one.
    if (options.objective == OptimizeObjective::runtime) {
      result.incumbent_screen_speedup = geomean_speedup(best.outcome);
    } else {
      result.incumbent_screen_score = geomean_speedup(best.outcome);
      if (auto own = log.own(key, "screen")) result.incumbent_screen_speedup = own->geomean_speedup;
    }
    if (options.confirm) {
      if (progress) {
        state.progress.phase = "confirm";
        state.progress.config = candidate->name;
        progress(state.progress);
      }
      auto const t_confirm = std::chrono::steady_clock::now();
      auto report = evaluator.evaluate_one(task, *candidate, TimingTier::confirm);
      result.confirm_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t_confirm).count();
      if (!report) {
        (void)log.finish(false);
        return report.error();
      }
      ++result.evaluated;
      auto confirmed = record_with_insights(*report, TimingTier::confirm, task, context.target.ceilings);
      if (auto status = complete(confirmed, *candidate, TimingTier::confirm, context); !status) {
        (void)log.finish(false);
        return status.error();
      }
      auto recorded = log.record(key, *candidate, std::nullopt, "", confirmed, context.target);
      if (!recorded) return recorded.error();
      // An energy measurement that failed the candidate is its confirm outcome.
      if (confirmed.status != report->status) {
        report->status = confirmed.status;
        report->message = confirmed.message;
      }
      result.confirmed_score = confirmed.objective_score;
      result.confirmed = std::move(*report);
    }
  }
  if (auto status = log.record_memory(memory->outcomes()); !status) return status.error();
  if (auto status = log.finish(true); !status) return status.error();
  return result;
}

Status check_options(OptimizeOptions const& options) {
  if (!is_optimize_strategy(options.strategy)) {
    return make_error(ErrorCode::invalid_argument,
                      "strategy '" + options.strategy + "': expected mcts, greedy, random or exhaustive");
  }
  if (options.max_evaluations == 0)
    return make_error(ErrorCode::invalid_argument, "budget: 0 evaluations (expected at least 1)");
  if (options.max_wall_seconds < 0.0)
    return make_error(ErrorCode::invalid_argument, "time: negative (expected seconds >= 0, 0 = no limit)");
  return Ok{};
}

}  // namespace

Result<OptimizeResult> optimize(TaskSpec const& task, std::string const& source,
                                OptimizeOptions const& options, CandidateEvaluator& evaluator, Store& store,
                                OptimizeProgressCallback const& progress) {
  if (auto status = check_options(options); !status) return status.error();
  if (auto space = TuningSpace::parse(source); !space) return space.error();
  auto log = create_optimize_run(store, task, source, options);
  if (!log) return log.error();
  return run(task, source, options, evaluator, *log, progress);
}

Result<OptimizeResult> resume(RunId run_id, TaskSpec const& task, CandidateEvaluator& evaluator, Store& store,
                              OptimizeProgressCallback const& progress) {
  auto info = load_optimize_run(store, run_id);
  if (!info) return info.error();
  if (info->status == "finished") {
    return make_error(
        ErrorCode::invalid_argument,
        fmt::format("run {} is finished (expected a run that was interrupted or killed)", run_id.value()));
  }
  if (info->task_name != task.name) {
    return make_error(ErrorCode::invalid_argument, fmt::format("run {} optimizes task '{}', not '{}'",
                                                               run_id.value(), info->task_name, task.name));
  }
  if (auto status = check_options(info->options); !status) return status.error();
  auto log = RunLog::reopen(store, run_id);
  if (!log) return log.error();
  return run(task, info->source, info->options, evaluator, *log, progress);
}

}  // namespace kopt
