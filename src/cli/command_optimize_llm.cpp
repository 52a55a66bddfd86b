// `kopt optimize TASK --from kernel.cu --proposer llm|mixed`: a source-level MCTS whose actions are LLM edits
// (and, mixed, library strategies and deeper knob tuning); docs/llm.md, "kopt optimize --proposer".
#include <fmt/format.h>

#include <ostream>

#include "cli/command_setup.hpp"
#include "cli/command_store.hpp"
#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "cli/search_evaluator.hpp"
#include "kopt/generate.hpp"
#include "kopt/inputs.hpp"
#include "kopt/json_values.hpp"
#include "kopt/report.hpp"
#include "kopt/source_search.hpp"
#include "kopt/text.hpp"

namespace kopt::cli {
namespace {

std::string step_line(SourceStep const& s) {
  std::string line = fmt::format("[node {}] {}", s.node, s.action.empty() ? "stop" : s.action);
  if (!s.choice.empty()) line += " (" + s.choice + ")";
  line += ": " + s.status;
  if (s.speedup) line += " " + format_ratio(*s.speedup);
  if (s.llm_calls > 0) line += fmt::format("  [{} calls, ${:.4f}]", s.llm_calls, s.cost_usd);
  if (s.status != "ok" && !s.message.empty()) line += ": " + s.message.substr(0, s.message.find('\n'));
  return line;
}

// The library when one is found: the planner's options and mixed's strategies. Without it, llm still works.
std::optional<StrategyLibrary> find_library(OptimizeArgs const& args, SourceProposer proposer,
                                            Console const& console) {
  auto root = find_strategy_library(std::nullopt);
  if (root) {
    if (auto library = load_strategy_library(*root)) return std::move(*library);
  }
  if (!args.json && proposer == SourceProposer::mixed)
    console.err << "note: no strategy library found; mixed runs LLM edits and knob moves only\n";
  return std::nullopt;
}

}  // namespace

int run_optimize_llm(OptimizeArgs const& args, Console const& console) {
  auto fail = [&](Error const& error, ErrorOrigin origin) {
    return report_error(error, exit_code_for(error.code, origin), args.json, console.out, console.err);
  };
  auto const proposer = source_proposer_from_string(args.proposer);
  if (!proposer) {
    return fail(make_error(ErrorCode::invalid_argument,
                           "--proposer '" + args.proposer + "': not a search over kernel sources"),
                ErrorOrigin::input);
  }
  auto source = read_text_file(args.from);
  if (!source) {
    return fail(make_error(ErrorCode::not_found, fmt::format("--from '{}': cannot read the file", args.from)),
                ErrorOrigin::input);
  }
  auto task = load_search_task(args.task_dir, args.arch);
  if (!task) return fail(task.error(), ErrorOrigin::input);
  // Everything the run needs is checked before the first call is paid for or the GPU is started.
  LlmLimits const limits{args.max_cost_usd, args.max_calls};
  auto llm = command_llm(args.prompts, limits);
  if (!llm) return fail(llm.error(), ErrorOrigin::input);
  auto const library = find_library(args, *proposer, console);

  std::vector<std::string> notes;
  auto evaluator = make_search_evaluator({args.evaluator, args.seed, args.arch}, notes);
  if (!evaluator) return fail(evaluator.error(), evaluator_error_origin(evaluator.error()));
  for (std::string const& note : notes) report_warning(note, console.err);
  // Opened (created) only now: bad input or a missing GPU leaves no store behind.
  auto store = open_store_to_write(args.store);
  if (!store) return fail(store.error(), ErrorOrigin::input);

  SourceSearchOptions options;
  options.proposer = *proposer;
  apply_search_args(args, options);
  options.node_budget = args.node_budget;
  options.repairs = args.repairs;
  options.judge = args.judge;
  options.prompt.prompts_dir = llm->prompts_dir;
  options.arch_sm = arch_number((*evaluator)->target().arch);
  options.limits = limits;
  options.backend_kind = llm->llm.kind;
  options.model = llm->llm.model;
  options.secret = llm->llm.secret;

  SourceSearchProgressCallback progress;
  if (!args.json) progress = [&](SourceStep const& step) { console.err << step_line(step) << '\n'; };
  auto result = source_search(*task, *source, library ? &*library : nullptr, *llm->llm.backend, **evaluator,
                              *store, options, progress);
  if (!result) {
    auto const code = result.error().code;
    bool const input = code == ErrorCode::invalid_argument || code == ErrorCode::invalid_spec;
    return fail(result.error(), input ? ErrorOrigin::input : ErrorOrigin::environment);
  }
  if (args.json) {
    auto json = source_search_to_json(*result);
    json["task"] = task->name;
    console.out << json_text(json) << '\n';
  } else {
    console.out << render_source_search(*result);
  }
  bool const verified =
      result->incumbent.has_value() &&
      (!options.confirm || (result->confirmed && result->confirmed->status == CandidateStatus::ok));
  return to_int(verified ? ExitCode::success : ExitCode::rejected);
}

}  // namespace kopt::cli
