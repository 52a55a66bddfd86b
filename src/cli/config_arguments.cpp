#include "cli/config_arguments.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "cli/arguments.hpp"

namespace kopt::cli {

void define_config_command(CLI::App& app, CliArguments& args) {
  auto* config = app.add_subcommand(
      "config",
      "Show kopt's settings: each one's value and where it came from (the environment, the project's\n"
      "kopt.toml, the user's ~/.config/kopt/config.toml, or the default). Secrets are never printed.");
  config->footer(
      "Examples:\n"
      "  kopt config\n"
      "  kopt config --json\n"
      "\n"
      "Settings come, first match wins, from a command-line option, the environment variable, the\n"
      "project file (kopt.toml in the current folder or a parent, up to the git root), the user file\n"
      "($XDG_CONFIG_HOME/kopt/config.toml, default ~/.config/kopt/config.toml), then the default.\n"
      "Every setting, its key, variable, range and default: docs/configuration.md.\n"
      "A file with an unknown key, a wrong type or a value out of range stops every command with exit\n"
      "code 2; KOPT_NO_CONFIG=1 reads no file.");
  config->add_flag("--json", args.config.json, "print a kopt.config/1 JSON document instead of a table");
}

}  // namespace kopt::cli
