// The `kopt` executable: parse the command line, run one subcommand, map the outcome to an exit code.
#include <exception>
#include <iostream>

#include "cli/arguments.hpp"
#include "cli/command_registry.hpp"
#include "cli/commands.hpp"
#include "cli/config_files.hpp"
#include "cli/error_output.hpp"
#include "cli/isolation_option.hpp"
#include "cli/terminal.hpp"

namespace {

int run(int argc, char** argv) {
  using namespace kopt::cli;
  auto parsed = parse_command_line(argc, argv, std::cout, std::cerr, cli_commands());
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
  // The parser accepts only registered commands (parse_command_line).
  return find_cli_command(args.command)->run(args, *configuration, console);
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
