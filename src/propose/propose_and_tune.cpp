// The built-in proposer's driver: screen every applicable strategy with a share of half the budget, give
// the rest to the best, confirm the overall best (docs/strategies.md, "Choosing and tuning").
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>

#include "kopt/propose.hpp"
#include "kopt/store.hpp"
#include "propose/binding_probe.hpp"

namespace kopt {
namespace {

// What strategies are ranked by: the objective's score, or the runtime speedup when that is the objective.
std::optional<double> rank_score(OptimizeResult const& r) {
  return r.objective == OptimizeObjective::runtime ? r.incumbent_screen_speedup : r.incumbent_screen_score;
}

// An applicable strategy (or a chain's combination of strategies) and its source instantiated for the task.
struct InstantiatedStrategy {
  std::string name;
  std::filesystem::path template_path;
  std::string source;
};

OptimizeOptions run_options(ProposeOptions const& options, InstantiatedStrategy const& strategy,
                            std::size_t budget, double wall_seconds, bool confirm) {
  OptimizeOptions run;
  run.strategy = options.search;
  run.max_evaluations = std::max<std::size_t>(1, budget);
  run.max_wall_seconds = wall_seconds;
  run.seed = options.seed;
  run.source_path = strategy.template_path;
  run.flags = options.flags;
  run.confirm = confirm;
  run.objective = options.objective;
  run.search_memory = options.search_memory;
  return run;
}

// What the session records of the proposer's options (docs/store.md, "sessions").
nlohmann::json session_options(ProposeOptions const& options) {
  return {{"budget", options.budget},   {"seconds", options.max_wall_seconds},
          {"search", options.search},   {"seed", options.seed},
          {"only", options.only},       {"flags", options.flags},
          {"confirm", options.confirm}, {"objective", std::string(to_string(options.objective))}};
}

// The binding a strategy is used under (docs/strategies.md, "Binding"). Several plausible bindings, or a
// family only inferred: one verified before (the store's) is used as it is; otherwise verification decides
// before any budget is spent on the strategy, and the binding that verifies is recorded. Nothing (and the
// reason in `result.skipped`) when none verifies.
// What choosing a strategy's binding needs from the proposer's run.
struct BindingContext {
  StrategyLibrary const& library;
  TaskSpec const& task;
  ProposeOptions const& options;
  std::string const& task_key;                   // binding_task_key(task)
  std::vector<VerifiedBinding> const& verified;  // the store's, for this task
  CandidateEvaluator& evaluator;
  Store& store;
};

Result<std::optional<StrategyBinding>> choose_binding(BindingContext const& c,
                                                      LibraryStrategy const& strategy,
                                                      Applicability const& applicability,
                                                      ProposeResult& result) {
  StrategyBinding const& first = applicability.bindings.front();
  if (!needs_verification(applicability)) {
    if (!first.identity) result.bindings.push_back(strategy.name + ": " + first.describe());
    return std::optional<StrategyBinding>(first);
  }
  StrategyBinding const* stored = nullptr;
  if (auto const* known = find_verified_binding(c.verified, strategy, applicability, &stored)) {
    result.bindings.push_back(strategy.name + ": " + stored->describe() + " (verified " + known->verified_at +
                              ", from the store)");
    return std::optional<StrategyBinding>(*stored);
  }
  if (c.options.binding_probes == 0) {
    result.bindings.push_back(strategy.name + ": " + first.describe() + " (not verified: no probes)");
    return std::optional<StrategyBinding>(first);
  }
  auto probe = probe_bindings(c.library, strategy, c.task, applicability.bindings, c.options.binding_probes,
                              c.options.arch_sm, c.options.flags, c.evaluator);
  if (!probe) return std::move(probe).error();
  if (!probe->verified) {
    result.skipped.push_back(
        fmt::format("{}: no binding verified ({})", strategy.name, fmt::join(probe->tried, "; ")));
    return std::optional<StrategyBinding>();
  }
  VerifiedBinding record;
  record.task_key = c.task_key;
  record.strategy = strategy.name;
  record.contract = strategy.signature;
  record.binding = probe->verified->describe();
  for (auto const& [role, value] : binding_roles(*probe->verified)) record.roles[role] = value;
  record.task_dir = c.task.dir.string();
  if (auto recorded = c.store.record_verified_binding(record); !recorded) return std::move(recorded).error();
  result.bindings.push_back(strategy.name + ": " + probe->verified->describe() + " (verified)");
  return std::optional<StrategyBinding>(*probe->verified);
}

}  // namespace

Result<ProposeResult> propose_and_tune(StrategyLibrary const& library, TaskSpec const& task,
                                       ProposeOptions const& options, CandidateEvaluator& evaluator,
                                       Store& store, ProposeProgressCallback const& progress) {
  auto const start = std::chrono::steady_clock::now();
  ProposeResult result;
  std::vector<InstantiatedStrategy> candidates;
  for (auto const& name : options.only) {
    if (library.find(name) == nullptr) {
      return make_error(ErrorCode::invalid_argument,
                        "no strategy named '" + name + "' in " + library.root.string());
    }
  }
  if (task.is_chain()) {
    auto chain = propose_chain(library, task, options.arch_sm, options.only);
    if (!chain) return chain.error();
    result.skipped = std::move(chain->skipped);
    for (ChainProposal& p : chain->proposals)
      candidates.push_back({std::move(p.name), std::move(p.template_path), std::move(p.source)});
  }
  for (auto const& s : library.strategies) {
    if (task.is_chain()) break;
    auto const applicability = check_applicability(s, task, options.arch_sm);
    if (!applicability.applies) result.skipped.push_back(s.name + ": " + applicability.reason);
  }
  std::string const task_key = binding_task_key(task);
  auto verified = store.verified_bindings(task_key);
  if (!verified) return std::move(verified).error();
  BindingContext const context{library, task, options, task_key, *verified, evaluator, store};
  // The applicable strategies, those the reference's profile points at first (choose_strategies).
  std::vector<std::string> instantiation_errors;
  for (auto const* s : task.is_chain() ? std::vector<LibraryStrategy const*>()
                                       : choose_strategies(library, task, options.arch_sm, options.signals)) {
    if (!options.only.empty() &&
        std::find(options.only.begin(), options.only.end(), s->name) == options.only.end()) {
      result.skipped.push_back(s->name + ": not selected");
      continue;
    }
    auto const applicability = check_applicability(*s, task, options.arch_sm);
    auto binding = choose_binding(context, *s, applicability, result);
    if (!binding) return binding.error();
    if (!*binding) continue;
    auto source = instantiate_strategy(library, *s, task, options.arch_sm, &**binding);
    if (!source) {
      instantiation_errors.push_back(source.error().message);
      continue;
    }
    candidates.push_back({s->name, s->template_path, std::move(*source)});
  }
  if (!instantiation_errors.empty()) {
    return make_error(ErrorCode::invalid_spec, fmt::format("{}", fmt::join(instantiation_errors, "\n")));
  }
  if (candidates.empty()) {
    std::string message = "no strategy of the library applies to " + task.name +
                          (task.is_chain()       ? " (a chain: a stage has no strategy)"
                           : task.family.empty() ? " (it declares no family)"
                                                 : " (family " + task.family + ")");
    for (auto const& why : result.skipped) {
      if (why.find(": serves ") == std::string::npos) message += "\n  " + why;
    }
    return make_error(ErrorCode::not_found, message);
  }

  // From here on every run is recorded: they are grouped as one session of the store.
  auto session =
      store.create_session(SessionRecord{"library", task.name, task.dir.string(), session_options(options)});
  if (!session) return session.error();
  result.session = *session;

  std::size_t const count = candidates.size();
  std::size_t const share =
      count == 1 ? options.budget : std::max<std::size_t>(1, options.budget / 2 / count);
  double const wall_share =
      options.max_wall_seconds > 0.0 ? options.max_wall_seconds / 2.0 / static_cast<double>(count) : 0.0;
  std::size_t used = 0;
  std::optional<double> best_score;
  std::size_t best_index = 0;

  auto const run_one = [&](std::size_t index, std::string const& phase, OptimizeOptions run) -> Status {
    auto const& c = candidates[index];
    run.session = result.session;
    run.session_strategy = c.name;
    run.session_phase = phase;
    auto const forward = [&](OptimizeProgress const& p) {
      if (!progress) return;
      progress(ProposeProgress{c.name, p.phase == "confirm" ? "confirm" : phase, index + 1, count, p});
    };
    auto outcome = optimize(task, c.source, run, evaluator, store, forward);
    if (!outcome) return outcome.error();
    used += outcome->points;
    if (auto const score = rank_score(*outcome); score && (!best_score || *score > *best_score)) {
      best_score = score;
      best_index = index;
    }
    result.runs.push_back(StrategyRun{c.name, phase, std::move(*outcome)});
    return Ok{};
  };

  auto const tune = [&]() -> Status {
    if (count == 1) {
      if (auto status =
              run_one(0, "screen",
                      run_options(options, candidates[0], share, options.max_wall_seconds, options.confirm));
          !status) {
        return status;
      }
    } else {
      for (std::size_t i = 0; i < count; ++i) {
        if (auto status = run_one(i, "screen", run_options(options, candidates[i], share, wall_share, false));
            !status) {
          return status;
        }
      }
      if (best_score) {
        // The deepening run replays the screen's points (answered from the store) and goes on.
        std::size_t const left = options.budget > used ? options.budget - used : 0;
        double const wall_left =
            options.max_wall_seconds > 0.0
                ? std::max(
                      1.0,
                      options.max_wall_seconds -
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count())
                : 0.0;
        auto const& winner = candidates[best_index];
        if (auto status = run_one(best_index, "deepen",
                                  run_options(options, winner, share + left, wall_left, options.confirm));
            !status) {
          return status;
        }
      }
    }
    return Ok{};
  };
  auto tuned = tune();
  if (tuned && options.size_dispatch && options.objective == OptimizeObjective::runtime) {
    OptimizeOptions run;
    run.seed = options.seed;
    run.flags = options.flags;
    run.confirm = options.confirm;
    run.session = result.session;
    run.session_strategy = "size dispatch";
    run.session_phase = "dispatch";
    auto dispatched = dispatch_by_size(task, result.runs, run, options.dispatch_min_gain, evaluator, store);
    if (dispatched) {
      result.dispatch = dispatched->summary;
      if (dispatched->run) result.runs.push_back(std::move(*dispatched->run));
    } else {
      tuned = dispatched.error();
    }
  }
  auto const finished =
      store.finish_session(result.session, tuned ? RunStatus::finished : RunStatus::interrupted);
  if (!tuned) return tuned.error();
  if (!finished) return finished.error();

  // The best: the run with the highest screen speedup (the deepening run, when there was one, includes the
  // screen's points of its strategy).
  // The size dispatch replaces it only where the confirm tier agrees: both confirmed, the higher confirmed
  // speedup (what export reads); without the confirm tier, the higher screen speedup.
  auto const take = [&](StrategyRun const& run) {
    result.best_screen_speedup = run.result.incumbent_screen_speedup;
    result.best_screen_score = run.result.incumbent_screen_score;
    result.best_strategy = run.strategy;
    result.best_run = run.result.run;
    result.confirmed = run.result.confirmed;
    result.confirmed_score = run.result.confirmed_score;
  };
  std::optional<double> best_rank;
  for (auto const& run : result.runs) {
    auto const score = rank_score(run.result);
    if (!score || run.phase == "dispatch") continue;
    if (!best_rank || *score >= *best_rank) {
      best_rank = score;
      take(run);
    }
  }
  if (!result.runs.empty() && result.runs.back().phase == "dispatch") {
    StrategyRun const& dispatch = result.runs.back();
    if (size_dispatch_wins(dispatch.result, result.confirmed, best_rank, options.confirm)) {
      take(dispatch);
      result.dispatch += "; the best kernel";
    } else if (dispatch.result.incumbent_screen_speedup) {
      result.dispatch += fmt::format("; not kept: {} is faster on the {} tier", *result.best_strategy,
                                     options.confirm ? "confirm" : "screen");
    }
  }
  result.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace kopt
