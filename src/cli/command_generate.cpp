// `kopt generate TASK --intent TEXT`: a language model writes kernels for the task, kopt verifies, repairs
// and times them, and the best verified one is written out (docs/llm.md, "kopt generate").
#include <fmt/format.h>

#include <fstream>
#include <ostream>

#include "cli/command_setup.hpp"
#include "cli/command_store.hpp"
#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "cli/search_evaluator.hpp"
#include "kopt/generate.hpp"
#include "kopt/generate_output.hpp"
#include "kopt/inputs.hpp"
#include "kopt/json_values.hpp"
#include "kopt/report.hpp"

namespace kopt::cli {
namespace {

std::string progress_line(GenerateAttempt const& a) {
  std::string line =
      fmt::format("[{} {}, {}] {}", a.role, a.strategy,
                  a.round == 0 ? std::string("draft") : fmt::format("repair {}", a.round), a.status);
  if (a.speedup) line += " " + format_ratio(*a.speedup);
  if (a.usage.input_tokens || a.usage.output_tokens) {
    line += fmt::format("  ({} in / {} out tokens", a.usage.input_tokens.value_or(0),
                        a.usage.output_tokens.value_or(0));
    if (a.cost_usd) line += fmt::format(", ${:.4f}", *a.cost_usd);
    line += fmt::format(", {:.1f} s{})", a.latency_ms / 1000.0, a.from_cache ? ", cached" : "");
  }
  if (a.status != "ok" && !a.message.empty()) {
    auto const end = a.message.find('\n');
    line += ": " + a.message.substr(0, end);
  }
  return line;
}

Status write_kernel(std::filesystem::path const& path, std::string const& source) {
  std::ofstream out(path, std::ios::binary);
  out << source;
  out.close();
  if (!out) return make_error(ErrorCode::io_error, "-o: cannot write '" + path.string() + "'");
  return Ok{};
}

// The library when one is found; without --library a missing library only means a generic request.
Result<std::optional<StrategyLibrary>> library_for(GenerateArgs const& args, Console const& console) {
  auto root = find_strategy_library(
      args.library.empty() ? std::nullopt : std::optional<std::filesystem::path>(args.library));
  if (!root) {
    if (!args.library.empty()) return root.error();
    if (!args.json) console.err << "note: " << root.error().message << "; asking for one generic kernel\n";
    return std::optional<StrategyLibrary>();
  }
  auto library = load_strategy_library(*root);
  if (!library) return library.error();
  return std::optional<StrategyLibrary>(std::move(*library));
}

}  // namespace

int run_generate(GenerateArgs const& args, Console const& console) {
  auto fail = [&](Error const& error, ErrorOrigin origin) {
    return report_error(error, exit_code_for(error.code, origin), args.json, console.out, console.err);
  };
  if (auto checked = check_generate_args(args); !checked) return fail(checked.error(), ErrorOrigin::input);
  if (auto checked = check_store_to_write(args.store); !checked)
    return fail(checked.error(), ErrorOrigin::input);
  auto task = load_search_task(args.task_dir, args.arch);
  if (!task) return fail(task.error(), ErrorOrigin::input);
  CandidateMode const mode = args.mode == "kernel" ? CandidateMode::kernel : CandidateMode::launcher;
  // Everything the run needs is checked before the first call is paid for.
  auto context = prompt_context_for_task(*task, args.intent, mode);
  if (!context) return fail(context.error(), ErrorOrigin::input);
  std::filesystem::path const out =
      args.out.empty() ? task->dir / "generated.cu" : std::filesystem::path(args.out);
  if (auto status = check_output_path(out); !status) {
    return fail(
        make_error(status.error().code, "-o" + status.error().message.substr(std::string("--out").size())),
        ErrorOrigin::input);
  }
  auto llm = command_llm(args.prompts, LlmLimits{args.max_cost_usd, args.max_calls});
  if (!llm) return fail(llm.error(), ErrorOrigin::input);
  auto library = library_for(args, console);
  if (!library) return fail(library.error(), ErrorOrigin::input);
  std::vector<std::string> notes;
  auto evaluator = make_search_evaluator({args.evaluator, args.seed, args.arch}, notes);
  if (!evaluator) return fail(evaluator.error(), evaluator_error_origin(evaluator.error()));
  for (std::string const& note : notes) report_warning(note, console.err);
  // Opened (created) only now: bad input or a missing GPU leaves no store behind.
  auto store = open_store_to_write(args.store);
  if (!store) return fail(store.error(), ErrorOrigin::input);

  GenerateOptions options;
  options.intent = args.intent;
  options.strategies = args.strategies;
  options.repairs = args.repairs;
  options.mode = mode;
  options.arch_sm = arch_number((*evaluator)->target().arch);
  options.prompt.prompts_dir = llm->prompts_dir;
  options.confirm = !args.no_confirm;
  options.limits = LlmLimits{args.max_cost_usd, args.max_calls};
  options.backend_kind = llm->llm.kind;
  options.model = llm->llm.model;
  options.secret = llm->llm.secret;

  GenerateProgressCallback progress;
  if (!args.json) progress = [&](GenerateAttempt const& a) { console.err << progress_line(a) << '\n'; };
  StrategyLibrary const* const strategies = *library ? &**library : nullptr;
  auto result =
      generate_kernels(*task, strategies, *llm->llm.backend, **evaluator, *store, options, progress);
  if (!result) {
    auto const code = result.error().code;
    auto const origin = code == ErrorCode::invalid_argument || code == ErrorCode::invalid_spec
                            ? ErrorOrigin::input
                            : ErrorOrigin::environment;
    return fail(result.error(), origin);
  }
  bool const written = result->best.has_value();
  if (written) {
    if (auto status = write_kernel(out, result->best_source); !status)
      return fail(status.error(), ErrorOrigin::input);
  }
  if (args.json) {
    auto json = generate_to_json(*result);
    json["task"] = task->name;
    json["output"] = written ? nlohmann::json(out.string()) : nlohmann::json(nullptr);
    console.out << json_text(json) << '\n';
  } else {
    console.out << render_generate(*result);
    if (written) {
      console.out << fmt::format("wrote {}\nnext: kopt optimize {} --from {}   (run {}: kopt report {})\n",
                                 out.string(), args.task_dir, out.string(), result->run.value(),
                                 result->run.value());
    }
  }
  return to_int(written ? ExitCode::success : ExitCode::rejected);
}

}  // namespace kopt::cli
