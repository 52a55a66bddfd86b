// The commands of `kopt`: the one place that lists them. An entry pairs a command's definition on the
// command line (its CLI11 subcommand: options, checks, help) with the function that runs it, so adding a
// command is one entry in command_registry.cpp; the parser, `kopt --help`, completion and main() read the
// registry and never a command's name.
#pragma once

#include <span>
#include <string_view>

namespace CLI {
class App;
}  // namespace CLI

namespace kopt::cli {

struct CliArguments;
struct Configuration;
struct Console;

struct CliCommand {
  // The words after `kopt` that choose it: "eval", "task check".
  std::string_view path;
  // Adds the command under `app` (a nested one adds its group too), its options bound to `args`.
  void (*define)(CLI::App& app, CliArguments& args) = nullptr;
  // Runs it once the command line parsed and the configuration files were read; returns the exit code.
  int (*run)(CliArguments const& args, Configuration const& configuration, Console const& console) = nullptr;
};

// Every command, in the order `kopt --help` lists them (defined in the kopt_cli_commands library, which
// holds the commands' code; the parser in kopt_cli takes the registry as an argument).
std::span<CliCommand const> cli_commands() noexcept;
CliCommand const* find_cli_command(std::string_view path) noexcept;

}  // namespace kopt::cli
