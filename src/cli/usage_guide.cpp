#include "cli/usage_guide.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop
#include <fmt/format.h>

#include <algorithm>

#include "cli/option_checks.hpp"
#include "cli/suggestions.hpp"

namespace kopt::cli {
namespace {

std::vector<std::string> command_names(CLI::App const& app) {
  std::vector<std::string> names;
  for (auto const* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  return names;
}

std::string joined(std::vector<std::string> const& words) {
  return fmt::format("{}", fmt::join(words, " "));
}

// The first sentence of a description, on one line: up to the first '.', ':' or ';' that ends a word.
std::string first_sentence(std::string const& description) {
  std::string line;
  for (char c : description) line += c == '\n' ? ' ' : c;
  for (std::size_t i = 0; i < line.size(); ++i) {
    bool const ends_word = i + 1 == line.size() || line[i + 1] == ' ';
    if ((line[i] == '.' || line[i] == ':' || line[i] == ';') && ends_word) return line.substr(0, i);
  }
  return line;
}

std::vector<std::string> long_option_names(CLI::App const& app) {
  std::vector<std::string> names;
  for (auto const* option : app.get_options()) {
    for (auto const& name : option->get_lnames()) names.push_back("--" + name);
  }
  return names;
}

}  // namespace

CommandWords read_command_words(CLI::App& app, std::vector<std::string> const& arguments) {
  CommandWords words;
  CLI::App* level = &app;
  std::string path = "kopt";
  for (auto const& argument : arguments) {
    if (argument.empty() || argument.front() == '-') {
      if (words.known.empty()) continue;  // global flags before the command: -v, --no-color
      break;                              // the command's own options begin
    }
    if (level->get_subcommands({}).empty()) break;  // a positional argument of the command
    auto names = command_names(*level);
    if (std::find(names.begin(), names.end(), argument) == names.end()) {
      std::string message =
          fmt::format("unknown command {}",
                      quoted_argument(words.known.empty() ? argument : joined(words.known) + " " + argument));
      if (auto near = nearest_word(argument, names)) {
        message += fmt::format("; did you mean '{}'?",
                               words.known.empty() ? *near : joined(words.known) + " " + *near);
      } else {
        message += fmt::format("; {} has: {}", path, fmt::join(names, ", "));
      }
      words.error = message;
      return words;
    }
    words.known.push_back(argument);
    path += " " + argument;
    level = level->get_subcommand(argument);
  }
  words.none = words.known.empty();
  if (!words.none && level->get_require_subcommand_min() > 0) {
    words.error = fmt::format("'{}' needs a command: {}", path, fmt::join(command_names(*level), ", "));
  }
  return words;
}

std::string command_overview(CLI::App const& app) {
  std::string text = "Commands:\n";
  std::size_t width = 0;
  for (auto const& name : command_names(app)) width = std::max(width, name.size());
  for (auto const* sub : app.get_subcommands({})) {
    std::string name = sub->get_name();
    std::string summary = first_sentence(sub->get_description());
    for (auto const* nested : sub->get_subcommands({})) {
      text += fmt::format("  {:<{}}  {}\n", name + " " + nested->get_name(), width + 6,
                          first_sentence(nested->get_description()));
    }
    if (!sub->get_subcommands({}).empty()) continue;
    text += fmt::format("  {:<{}}  {}\n", name, width + 6, summary);
  }
  return text;
}

std::string explain_unexpected(CLI::App& app, std::vector<std::string> const& command,
                               std::vector<std::string> const& unexpected) {
  CLI::App* level = &app;
  for (auto const& word : command) level = level->get_subcommand(word);
  std::vector<std::string> options = long_option_names(*level);
  if (level != &app) {
    auto global = long_option_names(app);
    options.insert(options.end(), global.begin(), global.end());
  }
  std::string const where = command.empty() ? "kopt" : "kopt " + joined(command);
  std::vector<std::string> parts;
  bool after_unknown_option = false;  // its value follows it: "--budgte 5"
  for (auto const& argument : unexpected) {
    if (argument.size() < 2 || argument.front() != '-') {
      if (!after_unknown_option)
        parts.push_back(fmt::format("unexpected argument {} for '{}'", quoted_argument(argument), where));
      after_unknown_option = false;
      continue;
    }
    std::string const name = argument.substr(0, argument.find('='));
    after_unknown_option = name.size() == argument.size();
    std::string part = fmt::format("unknown option {} for '{}'", quoted_argument(name), where);
    if (auto near = nearest_word(name, options)) part += fmt::format("; did you mean '{}'?", *near);
    parts.push_back(part);
  }
  return fmt::format("{}", fmt::join(parts, "\n"));
}

}  // namespace kopt::cli
