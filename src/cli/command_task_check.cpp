// `kopt task check <task-dir> [--json] [--seed N] [--device N]`
#include <cstdio>
#include <cstdlib>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "cli/terminal.hpp"
#include "kopt/inputs.hpp"
#include "kopt/report.hpp"
#include "kopt/task.hpp"

namespace kopt::cli {

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

  auto evaluator = Evaluator::create(*options);
  if (!evaluator) return fail(evaluator.error(), ErrorOrigin::environment);
  ProgressPrinter progress(console.err, progress_style_for(args.json, is_terminal(stderr)),
                           terminal_width(stderr));
  auto report = (*evaluator)->check_task(*task, [&](EvalProgress const& p) { progress.update(p); });
  progress.finish();
  if (!report) return fail(report.error(), ErrorOrigin::environment);

  if (args.json) {
    console.out << to_json(*report).dump(2) << '\n';
  } else {
    console.out << render_task_check(*report,
                                     RenderOptions{.color = console.color, .verbose = console.verbose});
  }
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
