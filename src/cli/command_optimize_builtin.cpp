// `kopt optimize TASK` without --from: the built-in proposer tunes the strategy library's kernels that apply
// to the task (docs/strategies.md, "Choosing and tuning").
#include <fmt/format.h>

#include <cstdlib>
#include <ostream>

#include "cli/command_setup.hpp"
#include "cli/command_store.hpp"
#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "cli/search_evaluator.hpp"
#include "kopt/inputs.hpp"
#include "kopt/json_values.hpp"
#include "kopt/propose.hpp"
#include "kopt/report.hpp"
#include "kopt/store.hpp"

namespace kopt::cli {
namespace {

// The best's speedup over the reference as export judges it: confirmed when it was confirmed, else screened.
std::optional<double> best_speedup(ProposeResult const& result) {
  if (result.confirmed && result.confirmed->status == CandidateStatus::ok &&
      result.confirmed->geomean_speedup)
    return *result.confirmed->geomean_speedup;
  return result.best_screen_speedup;
}

nlohmann::json propose_json(ProposeResult const& result) {
  auto const optional = [](std::optional<double> v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  nlohmann::json runs = nlohmann::json::array();
  for (auto const& r : result.runs) {
    runs.push_back({{"strategy", r.strategy},
                    {"phase", r.phase},
                    {"run", r.result.run.value()},
                    {"points", r.result.points},
                    {"stop_reason", r.result.stop_reason},
                    {"best_config", r.result.incumbent_config},
                    {"screen_speedup", optional(r.result.incumbent_screen_speedup)}});
  }
  nlohmann::json json = {{"schema", "kopt.propose/1"},
                         {"session", result.session.value()},
                         {"runs", runs},
                         {"skipped", result.skipped},
                         {"elapsed_seconds", result.elapsed_seconds},
                         {"best", nullptr},
                         {"bindings", result.bindings},
                         {"dispatch", result.dispatch}};
  if (result.best_strategy) {
    json["best"] = {
        {"strategy", *result.best_strategy},
        {"run", result.best_run ? nlohmann::json(result.best_run->value()) : nlohmann::json(nullptr)},
        {"screen_speedup", optional(result.best_screen_speedup)},
        {"screen_score", optional(result.best_screen_score)},
        {"confirmed_status", result.confirmed
                                 ? nlohmann::json(std::string(to_string(result.confirmed->status)))
                                 : nlohmann::json(nullptr)},
        {"confirmed_speedup",
         result.confirmed ? optional(result.confirmed->geomean_speedup) : nlohmann::json(nullptr)},
        {"confirmed_score", optional(result.confirmed_score)},
        {"keep_reference", best_speedup(result).value_or(0.0) < 1.0}};
  }
  return json;
}

std::string propose_text(ProposeResult const& result) {
  std::string text;
  for (auto const& b : result.bindings) text += "binding  " + b + "\n";
  for (auto const& r : result.runs) {
    text += fmt::format(
        "{:<8} {:<32} run {:>4}: {:>3} configurations, best {} ({})\n", r.phase, r.strategy,
        r.result.run.value(), r.result.points,
        r.result.incumbent_screen_speedup ? format_ratio(*r.result.incumbent_screen_speedup) : "-",
        r.result.incumbent_config.empty() ? "none verified" : r.result.incumbent_config);
  }
  if (!result.dispatch.empty()) text += result.dispatch + "\n";
  std::string const session =
      fmt::format("session {}: kopt report --session {}", result.session.value(), result.session.value());
  if (!result.best_strategy) return text + "no strategy produced a verified candidate\n" + session + "\n";
  text += fmt::format("best strategy: {} ({} on the screen tier)\n", *result.best_strategy,
                      result.best_screen_speedup ? format_ratio(*result.best_screen_speedup) : "-");
  if (result.confirmed) text += "confirmed: " + candidate_verdict(*result.confirmed) + "\n";
  if (auto const speedup = best_speedup(result); speedup && *speedup < 1.0) {
    text += fmt::format(
        "kopt's best is slower than the reference ({}): keep the reference; `kopt export --session {} -o "
        "best.cu` writes the reference (--even-if-slower writes kopt's best)\n",
        format_ratio(*speedup), result.session.value());
  } else if (result.best_run) {
    text += fmt::format("export it with: kopt export --session {} -o best.cu\n", result.session.value());
  }
  return text + session + "\n";
}

}  // namespace

int run_optimize_builtin(OptimizeArgs const& args, Console const& console) {
  auto fail = [&](Error const& error, ErrorOrigin origin) {
    return report_error(error, exit_code_for(error.code, origin), args.json, console.out, console.err);
  };
  auto task = load_search_task(args.task_dir, args.arch);
  if (!task) return fail(task.error(), ErrorOrigin::input);
  auto root = find_strategy_library(
      args.library.empty() ? std::nullopt : std::optional<std::filesystem::path>(args.library));
  if (!root) return fail(root.error(), ErrorOrigin::input);
  auto library = load_strategy_library(*root);
  if (!library) return fail(library.error(), ErrorOrigin::input);

  std::vector<std::string> notes;
  auto evaluator = make_search_evaluator({args.evaluator, args.seed, args.arch}, notes);
  if (!evaluator) return fail(evaluator.error(), evaluator_error_origin(evaluator.error()));
  for (std::string const& note : notes) report_warning(note, console.err);
  // Opened (created) only now: bad input or a missing GPU leaves no store behind.
  auto store = open_store_to_write(args.store);
  if (!store) return fail(store.error(), ErrorOrigin::input);

  ProposeOptions options;
  options.budget = args.budget;
  options.max_wall_seconds = args.time_s;
  options.search = args.strategy;
  options.seed = args.seed;
  options.only = args.use;
  options.flags = args.flags;
  options.arch_sm = arch_number((*evaluator)->target().arch);
  options.confirm = !args.no_confirm;
  options.search_memory = !args.no_memory;
  options.size_dispatch = !args.no_size_dispatch;
  options.objective = optimize_objective_from_string(args.objective).value_or(OptimizeObjective::runtime);

  ProposeProgressCallback progress;
  if (!args.json) {
    progress = [&](ProposeProgress const& p) {
      console.err << fmt::format("[{} {}/{} {}] ", p.phase, p.strategy_index, p.strategy_count, p.strategy)
                  << optimize_progress_line(p.search) << '\n';
    };
  }
  auto result = propose_and_tune(*library, *task, options, **evaluator, *store, progress);
  if (!result && result.error().code == ErrorCode::not_found) {
    // Nothing of the library applies: a normal outcome, not an error (the reference stays the best kernel).
    if (args.json) {
      console.out << json_text(nlohmann::json{{"schema", "kopt.propose/1"},
                                              {"applies", false},
                                              {"reason", result.error().message},
                                              {"best", nullptr}})
                  << '\n';
    } else {
      console.out << result.error().message << "\nthe reference stays the best kernel for " << task->name
                  << "; kopt strategies " << args.task_dir << " says why each strategy does not apply\n";
    }
    return to_int(ExitCode::success);
  }
  if (!result) {
    auto const origin = result.error().code == ErrorCode::not_found ||
                                result.error().code == ErrorCode::invalid_argument ||
                                result.error().code == ErrorCode::invalid_spec
                            ? ErrorOrigin::input
                            : ErrorOrigin::environment;
    return fail(result.error(), origin);
  }
  if (args.json) {
    console.out << json_text(propose_json(*result)) << '\n';
  } else {
    console.out << propose_text(*result);
  }
  bool const verified =
      result->best_strategy &&
      (!options.confirm || (result->confirmed && result->confirmed->status == CandidateStatus::ok));
  return to_int(verified ? ExitCode::success : ExitCode::rejected);
}

}  // namespace kopt::cli
