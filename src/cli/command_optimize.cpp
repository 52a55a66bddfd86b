// `kopt optimize <task-dir> --from kernel.cu [...]` and `kopt optimize --resume RUN_ID`; without --from,
// command_optimize_builtin.cpp (the built-in proposer); a source-search proposer (proposer_registry.hpp),
// command_optimize_llm.cpp.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>

#include "cli/command_setup.hpp"
#include "cli/command_store.hpp"
#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "cli/proposer_registry.hpp"
#include "cli/search_evaluator.hpp"
#include "kopt/inputs.hpp"
#include "kopt/json_values.hpp"
#include "kopt/optimize.hpp"
#include "kopt/propose.hpp"
#include "kopt/report.hpp"
#include "kopt/store.hpp"

namespace kopt::cli {
namespace {

Result<std::string> read_source(std::string const& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return make_error(ErrorCode::not_found, fmt::format("--from '{}': cannot read the file", path));
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

nlohmann::json result_json(OptimizeResult const& result) {
  nlohmann::json json = {{"schema", "kopt.optimize/1"},
                         {"run", result.run.value()},
                         {"points", result.points},
                         {"evaluated", result.evaluated},
                         {"from_store", result.from_store},
                         {"concurrent_evaluations", result.concurrent_evaluations},
                         {"learned_invalid", result.learned_invalid},
                         {"stop_reason", result.stop_reason},
                         {"elapsed_seconds", result.elapsed_seconds},
                         {"search_time", search_time_to_json(result.search_time, result.elapsed_seconds)},
                         {"confirm_seconds", result.confirm_seconds},
                         {"objective", std::string(to_string(result.objective))},
                         {"best", nullptr}};
  if (result.incumbent) {
    json["best"] = {
        {"candidate", result.incumbent->value()},
        {"config", result.incumbent_config},
        {"screen_speedup", result.incumbent_screen_speedup ? nlohmann::json(*result.incumbent_screen_speedup)
                                                           : nlohmann::json(nullptr)},
        {"confirmed_status", result.confirmed
                                 ? nlohmann::json(std::string(to_string(result.confirmed->status)))
                                 : nlohmann::json(nullptr)},
        {"confirmed_speedup", result.confirmed && result.confirmed->geomean_speedup
                                  ? nlohmann::json(*result.confirmed->geomean_speedup)
                                  : nlohmann::json(nullptr)}};
    if (result.objective != OptimizeObjective::runtime) {
      auto optional = [](std::optional<double> value) {
        return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
      };
      json["best"]["screen_score"] = optional(result.incumbent_screen_score);
      json["best"]["confirmed_score"] = optional(result.confirmed_score);
    }
  }
  return json;
}

std::string result_text(OptimizeResult const& result) {
  std::string text =
      fmt::format("run {}: {} configurations ({} evaluated, {} from the store), stopped: {}\n",
                  result.run.value(), result.points, result.evaluated, result.from_store, result.stop_reason);
  if (std::string const time = search_time_line(result.search_time, result.elapsed_seconds); !time.empty())
    text += time + "\n";
  if (result.concurrent_evaluations > 1)
    text +=
        fmt::format("{} candidates in flight at once (one per GPU or farm worker); confirmed on one GPU\n",
                    result.concurrent_evaluations);
  if (!result.incumbent) return text + "no configuration passed verification\n";
  std::string score;  // "energy gain 1.80x, speedup " for the energy and composite objectives
  if (result.objective != OptimizeObjective::runtime) {
    score = fmt::format("{} {}, speedup ", objective_label(result.objective),
                        result.incumbent_screen_score ? format_ratio(*result.incumbent_screen_score) : "-");
  }
  text += fmt::format("best: {} ({}{} on the screen tier)\n", result.incumbent_config, score,
                      result.incumbent_screen_speedup ? format_ratio(*result.incumbent_screen_speedup) : "-");
  if (result.confirmed) {
    text += "confirmed: " + candidate_verdict(*result.confirmed);
    if (result.confirmed_score)
      text +=
          fmt::format(" ({} {})", objective_label(result.objective), format_ratio(*result.confirmed_score));
    text += "\n";
  }
  text += fmt::format("export it with: kopt export {} -o best.cu\n", result.run.value());
  return text;
}

nlohmann::json dispatch_json(SizeDispatchOutcome const& dispatch, bool best) {
  auto const& run = dispatch.run;
  return {{"summary", dispatch.summary},
          {"run", run ? nlohmann::json(run->result.run.value()) : nlohmann::json(nullptr)},
          {"confirmed_speedup", run && run->result.confirmed && run->result.confirmed->geomean_speedup
                                    ? nlohmann::json(*run->result.confirmed->geomean_speedup)
                                    : nlohmann::json(nullptr)},
          {"best", best}};
}

std::string dispatch_text(SizeDispatchOutcome const& dispatch, bool best, RunId searched) {
  std::string text = dispatch.summary + "\n";
  if (!dispatch.run) return text;
  OptimizeResult const& run = dispatch.run->result;
  if (run.confirmed) text += "dispatch confirmed: " + candidate_verdict(*run.confirmed) + "\n";
  if (best) {
    text +=
        fmt::format("the dispatch is faster than run {}'s best: export it with: kopt export {} -o best.cu\n",
                    searched.value(), run.run.value());
  }
  return text;
}

ExitCode outcome_code(OptimizeResult const& result, bool confirm) {
  if (!result.incumbent) return ExitCode::rejected;
  if (confirm && (!result.confirmed || result.confirmed->status != CandidateStatus::ok))
    return ExitCode::rejected;
  return ExitCode::success;
}

}  // namespace

std::string optimize_progress_line(OptimizeProgress const& p) {
  if (p.phase == "confirm") return fmt::format("confirming {} with the full timing protocol", p.config);
  std::string line = fmt::format("[{}/{}] {}: {}", p.evaluations, p.budget, p.config, to_string(p.status));
  if (p.speedup) line += " " + format_ratio(*p.speedup);
  if (p.score) line += fmt::format(" ({} {})", objective_label(p.objective), format_ratio(*p.score));
  if (p.best_score) {
    line += fmt::format("  best {} {} ({})", objective_label(p.objective), format_ratio(*p.best_score),
                        p.best_config);
  } else if (p.best_speedup) {
    line += fmt::format("  best {} ({})", format_ratio(*p.best_speedup), p.best_config);
  }
  line += fmt::format("  [{} evaluated, {} from store]", p.evaluated, p.from_store);
  return line;
}

int run_optimize(OptimizeArgs const& args, Console const& console) {
  auto fail = [&](Error const& error, ErrorOrigin origin) {
    return report_error(error, exit_code_for(error.code, origin), args.json, console.out, console.err);
  };
  if (auto status = check_optimize_args(args); !status) return fail(status.error(), ErrorOrigin::input);
  if (auto status = check_store_to_write(args.store); !status)
    return fail(status.error(), ErrorOrigin::input);
  // A new run opens (creates) the store only once the evaluator has started, so that a run stopped by bad
  // input or a missing GPU leaves no store behind; --resume needs the recorded run, so its store first
  // (and it must exist: there is nothing to resume in a store that is not there).
  std::optional<Store> store;
  if (args.resume) {
    if (auto existing = open_store_to_read(args.store); !existing)
      return fail(existing.error(), ErrorOrigin::input);
    auto opened = open_store_to_write(args.store);
    if (!opened) return fail(opened.error(), ErrorOrigin::input);
    store = std::move(*opened);
  }

  OptimizeOptions options;
  std::string source;
  std::string task_dir = args.task_dir;
  if (args.resume) {
    auto info = load_optimize_run(*store, RunId(*args.resume));
    if (!info) return fail(info.error(), ErrorOrigin::input);
    options = info->options;
    source = info->source;
    task_dir = info->task_dir.string();
  } else {
    // check_optimize_args knew the proposer and checked what it needs.
    if (find_optimize_proposer(args.proposer)->engine == ProposerEngine::source_search)
      return run_optimize_llm(args, console);
    if (args.from.empty()) return run_optimize_builtin(args, console);
    auto text = read_source(args.from);
    if (!text) return fail(text.error(), ErrorOrigin::input);
    source = std::move(*text);
    options.strategy = args.strategy;
    apply_search_args(args, options);
    options.objective = optimize_objective_from_string(args.objective).value_or(OptimizeObjective::runtime);
  }
  auto task = load_search_task(task_dir, args.arch);
  if (!task) return fail(task.error(), ErrorOrigin::input);
  auto space = TuningSpace::parse(source, options.source_path.filename().string());
  if (!space) return fail(space.error(), ErrorOrigin::input);
  if (space->empty() && !args.resume) {
    // A kernel without its own tuning space gets kopt's generic one (docs/strategies.md).
    auto generic = generic_tuning_space(source, *task);
    if (!generic) return fail(generic.error(), ErrorOrigin::input);
    source = generic->source;
    if (!args.json) {
      console.err << fmt::format(
          "{} declares no tuning space (// kopt:knob): tuning kopt's generic one: {}\n", args.from,
          fmt::join(generic->added, "; "));
    }
  }
  std::vector<std::string> notes;
  auto evaluator = make_search_evaluator({args.evaluator, options.seed, args.arch}, notes);
  if (!evaluator) return fail(evaluator.error(), evaluator_error_origin(evaluator.error()));
  for (std::string const& note : notes) report_warning(note, console.err);
  if (!store) {
    auto opened = open_store_to_write(args.store);
    if (!opened) return fail(opened.error(), ErrorOrigin::input);
    store = std::move(*opened);
  }

  OptimizeProgressCallback progress;
  if (!args.json)
    progress = [&](OptimizeProgress const& p) { console.err << optimize_progress_line(p) << '\n'; };
  auto result = args.resume ? resume(RunId(*args.resume), *task, **evaluator, *store, progress)
                            : optimize(*task, source, options, **evaluator, *store, progress);
  if (!result) return fail(result.error(), ErrorOrigin::environment);
  // One configuration per size case, when the run's verified configurations disagree on which is fastest
  // (docs/strategies.md, "Dispatch by size"): one more run, confirmed like the best.
  std::optional<SizeDispatchOutcome> dispatch;
  if (!args.no_size_dispatch && options.objective == OptimizeObjective::runtime && result->incumbent) {
    OptimizeOptions run;
    run.seed = options.seed;
    run.flags = options.flags;
    run.confirm = options.confirm;
    std::string const kernel =
        options.source_path.empty() ? "kernel" : options.source_path.filename().string();
    auto dispatched = dispatch_by_size(*task, {StrategyRun{kernel, "search", *result}}, run,
                                       ProposeOptions{}.dispatch_min_gain, **evaluator, *store);
    if (!dispatched) return fail(dispatched.error(), ErrorOrigin::environment);
    dispatch = std::move(*dispatched);
  }
  bool const dispatch_best = dispatch && dispatch->run &&
                             size_dispatch_wins(dispatch->run->result, result->confirmed,
                                                result->incumbent_screen_speedup, options.confirm);
  if (args.json) {
    nlohmann::json json = result_json(*result);
    if (dispatch) json["dispatch"] = dispatch_json(*dispatch, dispatch_best);
    console.out << json_text(json) << '\n';
  } else {
    console.out << result_text(*result);
    if (dispatch) console.out << dispatch_text(*dispatch, dispatch_best, result->run);
  }
  return to_int(outcome_code(*result, options.confirm));
}

}  // namespace kopt::cli
