#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "kopt/toolchain.hpp"

namespace kopt {
namespace run_command_test {

TEST(RunCommand, ReturnsExitCodeAndOutput) {
  CommandResult const ok = run_command("echo hello");
  EXPECT_EQ(ok.exit_code, 0);
  EXPECT_EQ(ok.output, "hello\n");
  EXPECT_FALSE(ok.timed_out);

  CommandResult const failed = run_command("exit 3");
  EXPECT_EQ(failed.exit_code, 3);
  EXPECT_TRUE(failed.output.empty());
}

TEST(RunCommand, MergesStdoutAndStderr) {
  CommandResult const result = run_command("echo out; echo err 1>&2; exit 1");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("out\n"), std::string::npos);
  EXPECT_NE(result.output.find("err\n"), std::string::npos);
}

TEST(RunCommand, MissingProgramGivesShellNotFoundCode) {
  CommandResult const result = run_command("kopt_no_such_program_xyz --version");
  EXPECT_EQ(result.exit_code, 127);
  EXPECT_NE(result.output.find("not found"), std::string::npos);
}

TEST(RunCommand, CapsOutputAtOneMebibyte) {
  // 2 MiB of output; the child must not block on a full pipe and the output stays bounded.
  CommandResult const result = run_command("head -c 2097152 /dev/zero | tr '\\0' x");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_GE(result.output.size(), std::size_t{1} << 20);
  EXPECT_LT(result.output.size(), (std::size_t{1} << 20) + 100);
  EXPECT_NE(result.output.find("truncated"), std::string::npos);
}

TEST(RunCommand, KillsCommandAfterTimeout) {
  auto const start = std::chrono::steady_clock::now();
  CommandResult const result =
      run_command("echo started; sleep 30; echo never", std::chrono::milliseconds(300));
  auto const elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(result.timed_out);
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("started"), std::string::npos);
  EXPECT_EQ(result.output.find("never"), std::string::npos);
  EXPECT_LT(elapsed, std::chrono::seconds(10));
}

TEST(RunCommand, FastCommandWithinTimeoutIsNotKilled) {
  CommandResult const result = run_command("echo quick", std::chrono::seconds(20));
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.output, "quick\n");
}

TEST(RunProgram, PassesEachWordAsItIsWithoutAShell) {
  std::string const word = "it's a \"test\" $HOME `x` *";
  CommandResult const result = run_program({"/usr/bin/printf", "[%s]", word, "two words"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.output, "[" + word + "][two words]");
}

TEST(RunProgram, MissingProgramExitsWith127AndSaysWhy) {
  CommandResult const result = run_program({"/nonexistent/nvcc", "--version"}, std::chrono::seconds(20));
  EXPECT_EQ(result.exit_code, 127);
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.output, "/nonexistent/nvcc: exec failed: No such file or directory\n");
}

TEST(ShellQuote, SurvivesSpacesAndQuotes) {
  std::string const word = "it's a \"test\" $HOME `x`";
  CommandResult const result = run_command("printf '%s' " + shell_quote(word));
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.output, word);
}

}  // namespace run_command_test
}  // namespace kopt
