// The `kopt` executable: parse the command line, run one subcommand, map the outcome to an exit code.
#include <exception>
#include <iostream>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/config_files.hpp"
#include "cli/error_output.hpp"
#include "cli/isolation_option.hpp"
#include "cli/terminal.hpp"

namespace {

int run(int argc, char** argv) {
  using namespace kopt::cli;
  auto parsed = parse_command_line(argc, argv, std::cout, std::cerr);
  if (!parsed.arguments) return parsed.exit_code;
  CliArguments const& args = *parsed.arguments;
  // kopt.toml and the user's config file become environment variables before any command runs.
  auto configuration = load_configuration(std::cerr);
  if (!configuration) {
    kopt::Error const& error = configuration.error();
    return report_error(error, exit_code_for(error.code, ErrorOrigin::input), wants_json(argc, argv),
                        std::cout, std::cerr);
  }
  apply_require_isolation(args.global.require_isolation);
  Console console{std::cout, std::cerr, want_color(args.global.no_color), args.global.verbose};
  switch (args.command) {
    case Command::init: return run_init(args.init, console);
    case Command::task_check: return run_task_check(args.task_check, console);
    case Command::eval: return run_eval(args.eval, console);
    case Command::doctor: return run_doctor(args.doctor, console);
    case Command::optimize: return run_optimize(args.optimize, console);
    case Command::runs: return run_runs(args.runs, console);
    case Command::export_run: return run_export(args.export_run, console);
    case Command::report: return run_report(args.report, console);
    case Command::profile: return run_profile(args.profile, console);
    case Command::calibrate: return run_calibrate(args.calibrate, console);
    case Command::energy: return run_energy(args.energy, console);
    case Command::strategies: return run_strategies(args.strategies, console);
    case Command::bench: return run_bench(args.bench, console);
    case Command::generate: return run_generate(args.generate, console);
    case Command::config: return run_config(args.config, *configuration, console);
    case Command::completion: console.out << args.completion.script; return 0;
  }
  return kopt::cli::to_int(ExitCode::internal);
}

}  // namespace

int main(int argc, char** argv) {
  bool json = kopt::cli::wants_json(argc, argv);
  try {
    int code = run(argc, argv);
    std::cout.flush();
    return code;
  } catch (std::exception const& error) {
    return kopt::cli::report_error(kopt::make_error(kopt::ErrorCode::internal_error,
                                                    std::string("unexpected exception: ") + error.what()),
                                   kopt::cli::ExitCode::internal, json, std::cout, std::cerr);
  } catch (...) {
    return kopt::cli::report_error(
        kopt::make_error(kopt::ErrorCode::internal_error, "unexpected non-standard exception"),
        kopt::cli::ExitCode::internal, json, std::cout, std::cerr);
  }
}
