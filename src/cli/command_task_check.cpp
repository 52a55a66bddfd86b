// `kopt task check <task-dir> [--json] [--seed N] [--device N] [--compile-only [--arch sm_XY]]`
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <ostream>

#include "cli/command_compile_only.hpp"
#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "cli/terminal.hpp"
#include "kopt/compile_check.hpp"
#include "kopt/inputs.hpp"
#include "kopt/json_values.hpp"
#include "kopt/report.hpp"
#include "kopt/task.hpp"

namespace kopt::cli {
namespace {

// What task check can prove without running anything: the spec, the input generators and that the
// reference and baseline compile (with their resources). `no_gpu` is why no GPU could be used when task
// check fell back to this: then the task is not proven usable and the exit code is 3; with
// --compile-only the compile is what was asked for, and a task whose code compiles exits 0.
int run_task_check_compile_only(TaskCheckArgs const& args, TaskSpec const& task,
                                std::optional<std::string> const& no_gpu, Console const& console) {
  auto fail = [&](Error const& error, ErrorOrigin origin) {
    return report_error(error, exit_code_for(error.code, origin), args.json, console.out, console.err);
  };
  CompileOnlyFlags flags;
  flags.arch = args.arch;
  auto options = compile_check_options(flags, task);
  if (!options) return fail(options.error(), ErrorOrigin::input);
  auto report = check_compiles(task, {}, *options);
  if (!report) return fail(report.error(), ErrorOrigin::environment);
  report->checked = {"task spec", "input generators",
                     "compile (reference" + std::string(task.baseline ? ", baseline)" : ")"), "resources"};
  std::string const why = no_gpu ? "needs a GPU: " + *no_gpu : std::string("needs a GPU (--compile-only)");
  report->not_checked = {"the reference runs on every size case", "determinism", "constant outputs",
                         "timing (" + why + ")"};
  print_compile_check(*report, args.json, console);
  if (!no_gpu) return to_int(ExitCode::success);
  console.err << "kopt: the task's spec and code are valid, but running the reference needs a GPU (exit 3); "
                 "`kopt task check --compile-only` checks only what needs none\n";
  return to_int(ExitCode::environment);
}

}  // namespace

int run_task_check(TaskCheckArgs const& args, Console const& console) {
  auto fail = [&](Error const& error, ErrorOrigin origin) {
    return report_error(error, exit_code_for(error.code, origin), args.json, console.out, console.err);
  };
  auto options = task_check_options_from(args, worker_path_from_env(std::getenv("KOPT_WORKER")));
  if (!options) return fail(options.error(), ErrorOrigin::input);
  auto task = load_task(args.task_dir);
  if (!task) return fail(task.error(), ErrorOrigin::input);
  if (auto generators = validate_generators(*task); !generators)
    return fail(generators.error(), ErrorOrigin::input);
  if (args.compile_only) return run_task_check_compile_only(args, *task, std::nullopt, console);

  auto evaluator = Evaluator::create(*options);
  if (!evaluator) {
    // Without a GPU, everything that can be checked is checked and reported before saying so.
    if (evaluator.error().code == ErrorCode::no_gpu)
      return run_task_check_compile_only(args, *task, evaluator.error().message, console);
    return fail(evaluator.error(), ErrorOrigin::environment);
  }
  ProgressPrinter progress(console.err, progress_style_for(args.json, is_terminal(stderr)),
                           terminal_width(stderr));
  auto report = (*evaluator)->check_task(*task, [&](EvalProgress const& p) { progress.update(p); });
  progress.finish();
  if (!report) return fail(report.error(), ErrorOrigin::environment);

  if (args.json) {
    console.out << json_text(to_json(*report)) << '\n';
  } else {
    console.out << render_task_check(*report,
                                     RenderOptions{.color = console.color, .verbose = console.verbose});
  }
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
