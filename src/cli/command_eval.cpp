// `kopt eval <task-dir> <cand.cu>... [options]`
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <ostream>

#include "cli/candidates.hpp"
#include "cli/command_compile_only.hpp"
#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "cli/terminal.hpp"
#include "cli/tunable_candidate.hpp"
#include "kopt/compile_check.hpp"
#include "kopt/inputs.hpp"
#include "kopt/json_values.hpp"
#include "kopt/report.hpp"
#include "kopt/task.hpp"

namespace kopt::cli {
namespace {

std::vector<std::string> size_names(TaskSpec const& task) {
  std::vector<std::string> names;
  for (auto const& size : task.sizes) names.push_back(size.name);
  return names;
}

Status write_json_file(std::filesystem::path const& path, nlohmann::json const& json) {
  std::ofstream file(path);
  file << json_text(json) << '\n';
  file.close();
  if (!file) return make_error(ErrorCode::io_error, fmt::format("--out: cannot write '{}'", path.string()));
  return Ok{};
}

void describe_options(EvalOptions const& options, std::ostream& err) {
  err << fmt::format("kopt: tier {}, seed {}, device {}, arch {}, worker {}\n", to_string(options.tier),
                     options.seed ? std::to_string(*options.seed) : std::string("random"), options.device,
                     options.compile.arch.empty() ? std::string("detected") : options.compile.arch,
                     options.worker_path.empty() ? std::string("default") : options.worker_path.string());
}

// `--compile-only`: the reference, baseline and candidates compiled for --arch (else sm_90) and checked
// statically; no worker is started, so it behaves the same with or without a GPU.
int run_eval_compile_only(EvalArgs const& args, Console const& console) {
  auto fail = [&](Error const& error, ErrorOrigin origin) {
    return report_error(error, exit_code_for(error.code, origin), args.json, console.out, console.err);
  };
  if (!args.out.empty()) {
    if (auto status = check_output_path(args.out); !status) return fail(status.error(), ErrorOrigin::input);
  }
  auto task = load_task(args.task_dir);
  if (!task) return fail(task.error(), ErrorOrigin::input);
  if (auto generators = validate_generators(*task); !generators)
    return fail(generators.error(), ErrorOrigin::input);
  auto options = compile_check_options(
      CompileOnlyFlags{args.arch, args.gencode, args.flags, args.mode, args.sizes}, *task);
  if (!options) return fail(options.error(), ErrorOrigin::input);
  auto candidates = read_candidates(args.candidates);
  if (!candidates) return fail(candidates.error(), ErrorOrigin::input);
  auto concrete = concretise_tunable_candidates(*task, *candidates, args.flags);
  if (!concrete) return fail(concrete.error(), ErrorOrigin::input);
  for (std::string const& note : *concrete) console.err << note << '\n';

  auto report = check_compiles(*task, *candidates, *options);
  // A reference that does not compile is invalid_spec (exit 2): the task is broken, not the machine.
  if (!report) return fail(report.error(), ErrorOrigin::environment);
  report->checked = {"task spec", "input generators", "compile", "resources", "occupancy", "static findings"};
  report->not_checked = {"verification against the reference",
                         "timing (compile-only: run without "
                         "--compile-only on a GPU machine)"};
  print_compile_check(*report, args.json, console);
  if (!args.out.empty()) {
    if (auto status = write_json_file(args.out, to_json(*report)); !status) {
      return report_error(status.error(), ExitCode::usage, false, console.out, console.err);
    }
  }
  return to_int(all_candidates_compiled(*report) ? ExitCode::success : ExitCode::rejected);
}

}  // namespace

int run_eval(EvalArgs const& args, Console const& console) {
  if (args.compile_only) return run_eval_compile_only(args, console);
  auto fail = [&](Error const& error, ErrorOrigin origin) {
    return report_error(error, exit_code_for(error.code, origin), args.json, console.out, console.err);
  };
  auto options = eval_options_from(args, worker_path_from_env(std::getenv("KOPT_WORKER")));
  if (!options) return fail(options.error(), ErrorOrigin::input);
  auto task = load_task(args.task_dir);
  if (!task) return fail(task.error(), ErrorOrigin::input);
  if (auto generators = validate_generators(*task); !generators)
    return fail(generators.error(), ErrorOrigin::input);
  if (auto status = check_size_names(options->sizes, size_names(*task), task->name); !status) {
    return fail(status.error(), ErrorOrigin::input);
  }
  auto candidates = read_candidates(args.candidates);
  if (!candidates) return fail(candidates.error(), ErrorOrigin::input);
  auto concrete = concretise_tunable_candidates(*task, *candidates, args.flags);
  if (!concrete) return fail(concrete.error(), ErrorOrigin::input);
  for (std::string const& note : *concrete) console.err << note << '\n';
  if (console.verbose) describe_options(*options, console.err);

  // Without a GPU (found when the worker starts, or at the first evaluation) the way forward is named.
  auto fail_environment = [&](Error error) {
    if (error.code == ErrorCode::no_gpu) {
      error.message +=
          "\n(`kopt eval ... --compile-only` compiles the candidates and reports their resources "
          "without a GPU)";
    }
    return fail(error, ErrorOrigin::environment);
  };
  auto evaluator = Evaluator::create(*options);
  if (!evaluator) return fail_environment(evaluator.error());
  ProgressPrinter progress(console.err, progress_style_for(args.json, is_terminal(stderr)),
                           terminal_width(stderr));
  auto report =
      (*evaluator)->evaluate(*task, *candidates, [&](EvalProgress const& p) { progress.update(p); });
  progress.finish();
  if (!report) return fail_environment(report.error());

  nlohmann::json json = to_json(*report);
  if (args.json) {
    console.out << json_text(json) << '\n';
  } else {
    console.out << render_eval(*report, RenderOptions{.color = console.color, .verbose = console.verbose});
  }
  if (!args.out.empty()) {
    if (auto status = write_json_file(args.out, json); !status) {
      // The report is already printed (its JSON too): the failure to keep a copy is an error on stderr only.
      return report_error(status.error(), ExitCode::usage, false, console.out, console.err);
    }
  }
  return to_int(exit_code_for(*report));
}

}  // namespace kopt::cli
