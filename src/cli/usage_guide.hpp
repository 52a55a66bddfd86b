// What kopt tells a user whose command line names no command, an unknown command or an unknown option:
// the list of commands, and "did you mean" (cli/suggestions.hpp) from the commands and options that
// CLI11 knows, so that a new command or option needs nothing here.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace kopt::cli {

// The command words of a command line ("task", "check"), before parsing: the leading arguments that do
// not start with '-', each checked against the commands of the level above it.
struct CommandWords {
  std::vector<std::string> known;    // the command path that exists: {"task"}
  bool none = false;                 // no command word at all (a bare `kopt`, or only flags)
  std::optional<std::string> error;  // "unknown command 'evl'; did you mean 'eval'?"
};
CommandWords read_command_words(CLI::App& app, std::vector<std::string> const& arguments);

// "Commands:" and one line per command: its name and the first sentence of its description.
std::string command_overview(CLI::App const& app);

// The message for arguments that no option took: "unknown option '--budgte' for 'kopt optimize'; did
// you mean '--budget'?" for each argument that starts with '-', "unexpected argument 'x'" otherwise.
std::string explain_unexpected(CLI::App& app, std::vector<std::string> const& command,
                               std::vector<std::string> const& unexpected);

}  // namespace kopt::cli
