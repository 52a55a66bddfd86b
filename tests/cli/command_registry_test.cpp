// The registry of kopt's commands (src/cli/command_registry.cpp): the parser defines exactly the registered
// commands, chooses one by its path, and main() finds what runs it there.
#include "cli/command_registry.hpp"

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <sstream>
#include <string>
#include <vector>

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "cli/parse_support.hpp"

namespace kopt::cli {
namespace command_registry_test {

using test::parse;

// `path` split into words, then `extra`: {"task", "check", "--help"}.
std::vector<std::string> words_of(std::string_view path, std::vector<std::string> const& extra) {
  std::vector<std::string> words;
  std::istringstream stream{std::string(path)};
  for (std::string word; stream >> word;) words.push_back(word);
  words.insert(words.end(), extra.begin(), extra.end());
  return words;
}

test::Run parse_words(std::vector<std::string> const& words) {
  std::vector<char const*> args;
  args.reserve(words.size());
  for (std::string const& word : words) args.push_back(word.c_str());
  return parse(args);
}

TEST(CommandRegistry, EveryEntryHasAUniquePathADefinitionAndARunner) {
  std::set<std::string_view> paths;
  for (CliCommand const& command : cli_commands()) {
    EXPECT_TRUE(paths.insert(command.path).second) << command.path;
    EXPECT_NE(command.define, nullptr) << command.path;
    EXPECT_NE(command.run, nullptr) << command.path;
    EXPECT_EQ(find_cli_command(command.path), &command) << command.path;
  }
  EXPECT_GE(paths.size(), 16U);
  EXPECT_EQ(find_cli_command("task"), nullptr);  // a group, not a command
  EXPECT_EQ(find_cli_command("no-such-command"), nullptr);
}

TEST(CommandRegistry, EveryRegisteredCommandHasItsHelpAndIsListedByKopt) {
  auto const top = parse({"--help"});
  for (CliCommand const& command : cli_commands()) {
    auto const help = parse_words(words_of(command.path, {"--help"}));
    EXPECT_EQ(help.parsed.exit_code, 0) << command.path << ": " << help.err;
    EXPECT_NE(help.out.find("Usage: kopt " + std::string(command.path)), std::string::npos)
        << command.path << ": " << help.out;
    std::string const first_word = words_of(command.path, {}).front();
    EXPECT_NE(top.out.find("\n  " + first_word + " "), std::string::npos) << first_word;
  }
}

TEST(CommandRegistry, TheParsedCommandIsItsRegisteredPath) {
  auto const check = parse({"task", "check", "tasks/softmax", "--compile-only"});
  ASSERT_TRUE(check.parsed.arguments) << check.err;
  EXPECT_EQ(check.parsed.arguments->command, "task check");
  auto const completion = parse({"completion", "bash"});
  ASSERT_TRUE(completion.parsed.arguments) << completion.err;
  EXPECT_EQ(completion.parsed.arguments->command, "completion");
  // The script is written while parsing, from the definitions of every registered command.
  for (CliCommand const& command : cli_commands()) {
    std::string const first_word = words_of(command.path, {}).front();
    EXPECT_NE(completion.parsed.arguments->completion.script.find(first_word), std::string::npos)
        << first_word;
  }
}

void define_probe(CLI::App& app, CliArguments& /*args*/) {
  app.add_subcommand("probe", "a command of this test only");
}

void define_stray(CLI::App& app, CliArguments& /*args*/) {
  app.add_subcommand("unregistered", "a subcommand that no entry names");
}

int run_nothing(CliArguments const& /*args*/, Configuration const& /*configuration*/,
                Console const& /*console*/) {
  return 0;
}

ParsedCommandLine parse_with(std::span<CliCommand const> commands, std::vector<char const*> args,
                             std::string& err) {
  args.insert(args.begin(), "kopt");
  std::ostringstream out;
  std::ostringstream errors;
  auto parsed = parse_command_line(static_cast<int>(args.size()), args.data(), out, errors, commands);
  err = errors.str();
  return parsed;
}

TEST(CommandRegistry, TheParserKnowsOnlyTheCommandsItIsGiven) {
  std::array const commands{CliCommand{"probe", define_probe, run_nothing}};
  std::string err;
  auto const probe = parse_with(commands, {"probe"}, err);
  ASSERT_TRUE(probe.arguments) << err;
  EXPECT_EQ(probe.arguments->command, "probe");
  auto const eval = parse_with(commands, {"eval", "task", "k.cu"}, err);
  EXPECT_FALSE(eval.arguments);
  EXPECT_EQ(eval.exit_code, 2);
}

TEST(CommandRegistry, ASubcommandNoEntryNamesIsAnInternalError) {
  std::array const commands{CliCommand{"probe", define_stray, run_nothing}};
  std::string err;
  auto const stray = parse_with(commands, {"unregistered"}, err);
  EXPECT_FALSE(stray.arguments);
  EXPECT_EQ(stray.exit_code, 4);
  EXPECT_NE(err.find("'kopt unregistered' is not a registered command"), std::string::npos) << err;
}

}  // namespace command_registry_test
}  // namespace kopt::cli
