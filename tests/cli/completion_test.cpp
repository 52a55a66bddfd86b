// The completion scripts are run by a real bash (and checked by zsh when it is installed): what a user
// gets after pressing Tab.
#include "cli/completion.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "parse_support.hpp"
#include "support/temp_dir.hpp"

namespace kopt::cli {
namespace completion_test {

std::string script_for(char const* shell) {
  auto run = test::parse({"completion", shell});
  EXPECT_TRUE(run.parsed.arguments.has_value()) << run.err;
  return run.parsed.arguments ? run.parsed.arguments->completion.script : std::string();
}

std::string run_shell(std::string const& command) {
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return output;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe) != nullptr) output += buffer.data();
  pclose(pipe);
  return output;
}

// What bash offers for the command line `words` (the last word is the one being completed).
std::string bash_offers(std::filesystem::path const& script, std::string const& words) {
  return run_shell("bash -c 'source " + script.string() + "; COMP_WORDS=(" + words +
                   "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); [[ \"" + words +
                   "\" == *\" \" ]] && { COMP_WORDS+=(\"\"); COMP_CWORD=$((COMP_CWORD + 1)); }; _kopt; "
                   "printf \"%s\\n\" \"${COMPREPLY[@]}\"' 2>&1");
}

TEST(Completion, BashCompletesCommandsOptionsAndChoices) {
  kopt::test::TempDir dir;
  auto const script = dir.path() / "kopt.bash";
  std::ofstream(script) << script_for("bash");
  EXPECT_NE(bash_offers(script, "kopt ev").find("eval\n"), std::string::npos);
  EXPECT_NE(bash_offers(script, "kopt ta").find("task\n"), std::string::npos);
  EXPECT_NE(bash_offers(script, "kopt imp").find("import-torch\n"), std::string::npos);
  EXPECT_EQ(bash_offers(script, "kopt task ch"), "check\n");
  auto const options = bash_offers(script, "kopt optimize suites/x --bu");
  EXPECT_NE(options.find("--budget\n"), std::string::npos) << options;
  EXPECT_EQ(options.find("--tier"), std::string::npos) << options;  // an eval option
  auto const strategies = bash_offers(script, "kopt optimize suites/x --search ");
  for (char const* name : {"mcts\n", "greedy\n", "random\n", "exhaustive\n"}) {
    EXPECT_NE(strategies.find(name), std::string::npos) << strategies;
  }
  EXPECT_NE(bash_offers(script, "kopt eval t a.cu --tier s").find("screen"), std::string::npos);
}

TEST(Completion, BashOffersFilesForArguments) {
  kopt::test::TempDir dir;
  auto const script = dir.path() / "kopt.bash";
  std::ofstream(script) << script_for("bash");
  std::ofstream(dir.path() / "my_kernel.cu") << "";
  auto const offered = bash_offers(script, "kopt eval " + (dir.path() / "my_k").string());
  EXPECT_NE(offered.find("my_kernel.cu"), std::string::npos) << offered;
}

TEST(Completion, ZshScriptIsValidZsh) {
  auto const script = script_for("zsh");
  EXPECT_EQ(script.rfind("#compdef kopt", 0), 0u);
  EXPECT_NE(script.find("'--budget[unique configurations to try"), std::string::npos);
  if (run_shell("command -v zsh").empty())
    GTEST_SKIP() << "zsh is not installed: its syntax check is skipped";
  kopt::test::TempDir dir;
  std::ofstream(dir.path() / "_kopt") << script;
  EXPECT_EQ(run_shell("zsh -n " + (dir.path() / "_kopt").string() + " 2>&1; echo rc=$?"), "rc=0\n");
}

}  // namespace completion_test
}  // namespace kopt::cli
