// ChildProcess: spawning, line I/O with timeouts, EOF, exit and signal reporting, stderr capture, writes
// to a child that exited.
#include "kopt/child_process.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <string>
#include <vector>

namespace kopt {
namespace child_process_test {

using namespace std::chrono_literals;

std::vector<std::string> const kEnv = {"PATH=/usr/bin:/bin"};

ChildProcess spawn_sh(std::string const& script, std::vector<std::string> const& env = kEnv) {
  auto child = ChildProcess::spawn({"/bin/sh", "-c", script}, env);
  if (!child) ADD_FAILURE() << child.error().message;
  return std::move(child.value());
}

TEST(ChildProcess, SpawnRejectsEmptyArgv) {
  auto child = ChildProcess::spawn({}, kEnv);
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().code, ErrorCode::internal_error);
}

TEST(ChildProcess, WriteLineReadLineRoundTrip) {
  ChildProcess child = spawn_sh("while read -r line; do echo \"got:$line\"; done");
  ASSERT_TRUE(child.running());
  ASSERT_TRUE(child.write_line("hello"));
  ASSERT_TRUE(child.write_line("{\"op\": \"x\"}"));
  auto first = child.read_line(5s);
  ASSERT_TRUE(first) << first.error().message;
  ASSERT_TRUE(first->has_value());
  EXPECT_EQ(**first, "got:hello");
  auto second = child.read_line(5s);
  ASSERT_TRUE(second && second->has_value());
  EXPECT_EQ(**second, "got:{\"op\": \"x\"}");
  ExitInfo const exit = child.close_and_wait(5s);
  EXPECT_TRUE(exit.exited);
  EXPECT_EQ(exit.code, 0);
  EXPECT_FALSE(child.running());
}

TEST(ChildProcess, SeveralLinesInOneWriteAreSplit) {
  ChildProcess child = spawn_sh("printf 'a\\nbb\\n\\nccc\\n'; read -r wait_for_close");
  std::vector<std::string> lines;
  for (int i = 0; i < 4; ++i) {
    auto line = child.read_line(5s);
    ASSERT_TRUE(line && line->has_value());
    lines.push_back(**line);
  }
  EXPECT_EQ(lines, (std::vector<std::string>{"a", "bb", "", "ccc"}));
  child.kill_and_wait();
}

TEST(ChildProcess, ReadLineTimesOutWithNullopt) {
  ChildProcess child = spawn_sh("read -r never_sent");
  auto const start = std::chrono::steady_clock::now();
  auto line = child.read_line(150ms);
  auto const elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(line) << line.error().message;
  EXPECT_FALSE(line->has_value());
  EXPECT_GE(elapsed, 140ms);
  EXPECT_LT(elapsed, 3s);
  EXPECT_TRUE(child.running());
  child.kill_and_wait();
}

TEST(ChildProcess, ReadLineReportsEofAsError) {
  ChildProcess child = spawn_sh("echo one; exit 0");
  auto first = child.read_line(5s);
  ASSERT_TRUE(first && first->has_value());
  EXPECT_EQ(**first, "one");
  auto eof = child.read_line(5s);
  ASSERT_FALSE(eof);
  EXPECT_EQ(eof.error().code, ErrorCode::worker_error);
  EXPECT_NE(eof.error().message.find("closed"), std::string::npos) << eof.error().message;
}

TEST(ChildProcess, KillAndWaitReportsTheSignalAndIsIdempotent) {
  ChildProcess child = spawn_sh("read -r never_sent");
  ExitInfo const exit = child.kill_and_wait();
  EXPECT_FALSE(exit.exited);
  EXPECT_EQ(exit.code, SIGKILL);
  EXPECT_NE(exit.describe().find("signal 9"), std::string::npos) << exit.describe();
  EXPECT_FALSE(child.running());
  ExitInfo const again = child.kill_and_wait();
  EXPECT_FALSE(again.exited);
  EXPECT_EQ(again.code, SIGKILL);
}

TEST(ChildProcess, KillAndWaitAfterEofKeepsTheExitCode) {
  // WorkerClient reaps a worker with kill_and_wait() as soon as its stdout closes; the exit code the
  // worker chose (3 = watchdog, 4 = sticky error) must survive that even if it was not reaped yet.
  for (int i = 0; i < 10; ++i) {
    ChildProcess child = spawn_sh("exit 9");
    auto eof = child.read_line(5s);
    ASSERT_FALSE(eof);
    ExitInfo const exit = child.kill_and_wait();
    EXPECT_TRUE(exit.exited) << exit.describe();
    EXPECT_EQ(exit.code, 9);
  }
}

TEST(ChildProcess, ReportsDeathBySignal) {
  ChildProcess child = spawn_sh("kill -SEGV $$");
  ExitInfo const exit = child.close_and_wait(5s);
  EXPECT_FALSE(exit.exited);
  EXPECT_EQ(exit.code, SIGSEGV);
  EXPECT_NE(exit.describe().find("signal 11"), std::string::npos) << exit.describe();
}

TEST(ChildProcess, CloseAndWaitReportsTheExitCode) {
  // cat ends when stdin closes, then the shell exits with 7.
  ChildProcess child = spawn_sh("cat > /dev/null; exit 7");
  ExitInfo const exit = child.close_and_wait(5s);
  EXPECT_TRUE(exit.exited);
  EXPECT_EQ(exit.code, 7);
  EXPECT_EQ(exit.describe(), "exited with code 7");
  EXPECT_FALSE(child.running());
}

TEST(ChildProcess, CloseAndWaitKillsAChildThatDoesNotExit) {
  ChildProcess child = spawn_sh("exec sleep 30");
  auto const start = std::chrono::steady_clock::now();
  ExitInfo const exit = child.close_and_wait(200ms);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  EXPECT_FALSE(exit.exited);
  EXPECT_EQ(exit.code, SIGKILL);
}

TEST(ChildProcess, StderrTailReturnsWhatTheChildWroteToStderr) {
  ChildProcess child = spawn_sh("echo 'to stdout'; echo 'first problem' >&2; echo 'abcdefghij' >&2; exit 1");
  ExitInfo const exit = child.close_and_wait(5s);
  EXPECT_TRUE(exit.exited);
  EXPECT_EQ(exit.code, 1);
  EXPECT_EQ(child.stderr_tail(), "first problem\nabcdefghij\n");
  EXPECT_EQ(child.stderr_tail(5), "...ghij\n");
}

TEST(ChildProcess, EnvironmentIsReplacedEntirely) {
  ChildProcess child = spawn_sh("echo \"[$ONLY_VAR][$HOME]\"", {"ONLY_VAR=visible"});
  auto line = child.read_line(5s);
  ASSERT_TRUE(line && line->has_value());
  EXPECT_EQ(**line, "[visible][]");
  child.close_and_wait(5s);
}

TEST(ChildProcess, ExecFailureExitsWith127AndSaysSoOnStderr) {
  auto child = ChildProcess::spawn({"/nonexistent/kopt-worker"}, kEnv);
  ASSERT_TRUE(child) << child.error().message;
  auto eof = child->read_line(5s);
  EXPECT_FALSE(eof);
  ExitInfo const exit = child->close_and_wait(5s);
  EXPECT_TRUE(exit.exited);
  EXPECT_EQ(exit.code, 127);
  EXPECT_NE(child->stderr_tail().find("exec failed"), std::string::npos) << child->stderr_tail();
}

TEST(ChildProcess, WriteToAChildThatExitedIsAnErrorNotASigpipe) {
  auto const previous = ::signal(SIGPIPE, SIG_DFL);  // a SIGPIPE would end this test binary
  ChildProcess child = spawn_sh("exit 0");
  auto eof = child.read_line(5s);  // its stdout closes when it exits
  EXPECT_FALSE(eof);
  Status written = Ok{};
  for (int i = 0; i < 100 && written; ++i) written = child.write_line(std::string(70000, 'w'));
  ::signal(SIGPIPE, previous);
  ASSERT_FALSE(written);
  EXPECT_NE(written.error().message.find("Broken pipe"), std::string::npos) << written.error().message;
  EXPECT_EQ(child.close_and_wait(5s).code, 0);
}

TEST(ChildProcess, MoveTransfersOwnership) {
  ChildProcess original = spawn_sh("while read -r line; do echo \"$line$line\"; done");
  ChildProcess moved(std::move(original));
  EXPECT_FALSE(original.running());  // NOLINT(bugprone-use-after-move): moved-from state is specified
  ASSERT_TRUE(moved.running());
  ASSERT_TRUE(moved.write_line("ab"));
  auto line = moved.read_line(5s);
  ASSERT_TRUE(line && line->has_value());
  EXPECT_EQ(**line, "abab");

  ChildProcess assigned;
  EXPECT_FALSE(assigned.running());
  assigned = std::move(moved);
  ASSERT_TRUE(assigned.running());
  ExitInfo const exit = assigned.close_and_wait(5s);
  EXPECT_TRUE(exit.exited);
  EXPECT_EQ(exit.code, 0);
}

}  // namespace child_process_test
}  // namespace kopt
