// `kopt init <launcher.cu> [-o DIR] [--force]`
#include <fmt/format.h>

#include <ostream>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "kopt/task.hpp"

namespace kopt::cli {

int run_init(InitArgs const& args, Console const& console) {
  std::filesystem::path launcher(args.launcher);
  std::filesystem::path dir = args.out_dir.empty() ? launcher.stem() : std::filesystem::path(args.out_dir);
  std::error_code ec;  // a path kopt cannot look at (a symbolic-link loop) is init_task's error to report
  if (!args.force && std::filesystem::exists(dir / "task.toml", ec)) {
    return report_error(
        make_error(ErrorCode::invalid_argument,
                   fmt::format("{} already exists; pass --force to overwrite it (and reference.cu)",
                               (dir / "task.toml").string())),
        ExitCode::usage, false, console.out, console.err);
  }
  auto result = init_task(launcher, dir, args.force);
  if (!result) {
    return report_error(result.error(), exit_code_for(result.error().code, ErrorOrigin::input), false,
                        console.out, console.err);
  }
  auto const& init = *result;
  console.out << fmt::format("wrote {} and {}\n", (init.task_dir / "task.toml").string(),
                             (init.task_dir / "reference.cu").string());
  if (!init.todos.empty()) {
    console.out << "\nstill to do in task.toml:\n";
    for (std::size_t i = 0; i < init.todos.size(); ++i)
      console.out << fmt::format("  {}. {}\n", i + 1, init.todos[i]);
  }
  console.out << fmt::format("\nnext: {}run\n  kopt task check {}\n",
                             init.todos.empty() ? "" : "fill in the TODOs above, then ",
                             init.task_dir.string());
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
