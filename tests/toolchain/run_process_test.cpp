// run_process and ChildProcess::communicate: input delivered whole while output is read, output and
// stderr bounded, the time limit killing the whole process group, the environment and working
// directory, what a child does not inherit (descriptors, SIGPIPE disposition), and the outcome's message.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "kopt/child_process.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace run_process_test {

using namespace std::chrono_literals;

ProcessSpec shell(std::string const& script) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.environment = std::vector<std::string>{"PATH=/usr/bin:/bin"};
  spec.stderr_target = StderrTarget::pipe;
  return spec;
}

ProcessOutcome run(ProcessSpec const& spec, CommunicateOptions const& options = {}) {
  auto outcome = run_process(spec, options);
  if (!outcome) ADD_FAILURE() << outcome.error().message;
  return outcome ? std::move(*outcome) : ProcessOutcome{};
}

// A process that is gone, or dead and waiting for a parent that does not reap it (a container's init).
bool is_dead(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return true;
  std::stringstream text;
  text << stat.rdbuf();
  std::string const line = text.str();
  auto const state = line.rfind(')');
  return state == std::string::npos || line.substr(state + 2, 1) == "Z";
}

// Polls for up to 5 s: a killed process takes a moment to be marked dead.
bool dies_soon(int pid) {
  auto const deadline = std::chrono::steady_clock::now() + 5s;
  while (!is_dead(pid) && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(10ms);
  return is_dead(pid);
}

TEST(RunProcess, DeliversALargeInputWholeWhileReadingTheOutput) {
  // 3 MiB each way: more than a pipe holds, so writing it all before reading would deadlock.
  std::string input(3 << 20, 'x');
  for (std::size_t i = 0; i < input.size(); i += 4099) input[i] = static_cast<char>('a' + i % 26);
  ProcessOutcome const echoed = run(shell("cat"), {.input = input});
  EXPECT_TRUE(echoed.exit.exited);
  EXPECT_EQ(echoed.exit.code, 0);
  EXPECT_FALSE(echoed.output_truncated);
  EXPECT_TRUE(echoed.output == input) << "got " << echoed.output.size() << " bytes back";
}

TEST(RunProcess, WithoutInputTheChildReadsEndOfFile) {
  ProcessOutcome const outcome =
      run(shell("if read -r line; then echo \"read $line\"; else echo eof; fi"), {.timeout = 20s});
  EXPECT_FALSE(outcome.timed_out);
  EXPECT_EQ(outcome.output, "eof\n");
}

TEST(RunProcess, ChildThatIgnoresItsInputNeitherBlocksNorRaisesSigpipe) {
  // SIGPIPE at its default: a write to a closed pipe would end this test binary.
  auto const previous = ::signal(SIGPIPE, SIG_DFL);
  ProcessOutcome const outcome = run(shell("echo early; exit 4"), {.input = std::string(4 << 20, 'p')});
  ::signal(SIGPIPE, previous);
  EXPECT_EQ(outcome.exit.code, 4);
  EXPECT_EQ(outcome.output, "early\n");
}

TEST(RunProcess, OutputKeepsItsStartUpToTheCapAndTheChildIsNotBlocked) {
  CommunicateOptions options;
  options.max_output_bytes = 1000;
  options.timeout = 20s;
  ProcessOutcome const outcome = run(shell("echo first; head -c 2097152 /dev/zero; echo done >&2"), options);
  EXPECT_FALSE(outcome.timed_out);
  EXPECT_EQ(outcome.exit.code, 0);
  EXPECT_TRUE(outcome.output_truncated);
  ASSERT_EQ(outcome.output.size(), 1000U);
  EXPECT_EQ(outcome.output.substr(0, 6), "first\n");
  EXPECT_EQ(outcome.error_tail, "done\n");  // written after the 2 MiB: the child ran to its end
}

TEST(RunProcess, StderrKeepsItsEnd) {
  CommunicateOptions options;
  options.max_error_bytes = 100;
  ProcessOutcome const outcome =
      run(shell("head -c 300000 /dev/zero | tr '\\0' e >&2; echo ' last words' >&2; exit 2"), options);
  EXPECT_EQ(outcome.exit.code, 2);
  ASSERT_EQ(outcome.error_tail.size(), 100U);
  EXPECT_EQ(outcome.error_tail.substr(100 - 12), " last words\n");
  EXPECT_EQ(outcome.error_tail.find_first_not_of('e'), 100U - 12);
}

TEST(RunProcess, StderrGoesWhereTheSpecSays) {
  struct Case {
    StderrTarget target;
    std::string output;
    std::string error_tail;
  };
  // with_stdout is one stream in the order written; a file is read back into the outcome.
  for (Case const& c : {Case{StderrTarget::pipe, "one\nthree\n", "two\n"},
                        Case{StderrTarget::with_stdout, "one\ntwo\nthree\n", ""},
                        Case{StderrTarget::file, "one\nthree\n", "two\n"}}) {
    ProcessSpec spec = shell("echo one; echo two >&2; echo three");
    spec.stderr_target = c.target;
    ProcessOutcome const outcome = run(spec);
    EXPECT_EQ(outcome.output, c.output) << static_cast<int>(c.target);
    EXPECT_EQ(outcome.error_tail, c.error_tail) << static_cast<int>(c.target);
  }
}

TEST(RunProcess, TimeoutKillsTheWholeProcessGroup) {
  // The grandchild holds stdout open: without the group kill, the read would wait the full 30 s.
  ProcessSpec spec = shell("sleep 30 & echo $!; wait");
  spec.own_process_group = true;
  auto const started = std::chrono::steady_clock::now();
  ProcessOutcome const outcome = run(spec, {.timeout = 500ms});
  EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_FALSE(outcome.exit.exited);
  EXPECT_EQ(outcome.exit.code, SIGKILL);
  int const grandchild = std::atoi(outcome.output.c_str());
  ASSERT_GT(grandchild, 0) << outcome.output;
  EXPECT_TRUE(dies_soon(grandchild)) << "pid " << grandchild << " outlived its group's timeout";
}

TEST(ChildProcess, KillAndWaitKillsTheProcessGroupItLeads) {
  ProcessSpec spec = shell("sleep 30 & echo $!; wait");
  spec.own_process_group = true;
  auto child = ChildProcess::spawn(spec);
  ASSERT_TRUE(child) << child.error().message;
  auto line = child->read_line(5s);
  ASSERT_TRUE(line && line->has_value());
  int const grandchild = std::stoi(**line);
  ASSERT_FALSE(is_dead(grandchild));
  child->kill_and_wait();
  EXPECT_TRUE(dies_soon(grandchild)) << "pid " << grandchild << " outlived its group's leader";
}

TEST(RunProcess, TimeoutAlsoCoversAChildThatClosedItsOutputButRunsOn) {
  ProcessOutcome const outcome = run(shell("exec >&- 2>&-; sleep 30"), {.timeout = 300ms});
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_FALSE(outcome.exit.exited);
}

TEST(RunProcess, FastChildWithinItsLimitIsNotKilled) {
  ProcessOutcome const outcome = run(shell("echo quick"), {.timeout = 20s});
  EXPECT_FALSE(outcome.timed_out);
  EXPECT_TRUE(outcome.exit.exited);
  EXPECT_EQ(outcome.output, "quick\n");
}

TEST(RunProcess, DescriptorsWithoutCloseOnExecAreNotInherited) {
  int const leaked = ::open("/dev/null", O_RDONLY);  // as a library that forgets O_CLOEXEC would
  ASSERT_GE(leaked, 3);
  std::string const probe = "/dev/fd/" + std::to_string(leaked);
  ProcessOutcome const outcome = run(shell("if [ -e " + probe + " ]; then echo open; else echo closed; fi"));
  ::close(leaked);
  EXPECT_EQ(outcome.output, "closed\n");
}

TEST(RunProcess, ChildStartsWithDefaultSigpipeAndNoBlockedSignals) {
  auto const previous = ::signal(SIGPIPE, SIG_IGN);  // as kopt's worker client sets for itself
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  sigset_t old_mask;
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &old_mask);
  ProcessSpec spec;
  spec.argv = {"/bin/grep", "-E", "^Sig(Ign|Blk):", "/proc/self/status"};
  ProcessOutcome const outcome = run(spec);
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  ::signal(SIGPIPE, previous);
  ASSERT_EQ(outcome.exit.code, 0) << outcome.error_tail;
  std::istringstream lines(outcome.output);
  std::string name;
  std::string mask;
  int seen = 0;
  while (lines >> name >> mask) {
    ++seen;
    unsigned long long const bits = std::stoull(mask, nullptr, 16);
    EXPECT_EQ(bits & (1ULL << (SIGPIPE - 1)), 0ULL) << name << " " << mask;
    if (name == "SigBlk:") {
      EXPECT_EQ(bits, 0ULL) << mask;
    }
  }
  EXPECT_EQ(seen, 2) << outcome.output;
}

TEST(RunProcess, EnvironmentOverridesReplaceOnlyTheirVariables) {
  ProcessSpec spec = shell("echo \"[$KEPT][$REPLACED][$ADDED][${HOME-unset}]\"");
  spec.environment = std::vector<std::string>{"PATH=/usr/bin:/bin", "KEPT=1", "REPLACED=2"};
  spec.environment_overrides = {"REPLACED=3", "ADDED=4"};
  EXPECT_EQ(run(spec).output, "[1][3][4][unset]\n");
}

TEST(RunProcess, WithoutAnEnvironmentTheParentsIsInheritedAndOverridden) {
  ::setenv("KOPT_RUN_PROCESS_TEST_INHERITED", "from parent", 1);
  ProcessSpec spec = shell("echo \"[$KOPT_RUN_PROCESS_TEST_INHERITED][$KOPT_RUN_PROCESS_TEST_ADDED]\"");
  spec.environment.reset();
  spec.environment_overrides = {"KOPT_RUN_PROCESS_TEST_ADDED=override"};
  ProcessOutcome const outcome = run(spec);
  ::unsetenv("KOPT_RUN_PROCESS_TEST_INHERITED");
  EXPECT_EQ(outcome.output, "[from parent][override]\n");
}

TEST(RunProcess, AnOverrideThatIsNotKeyValueIsRejected) {
  ProcessSpec spec = shell("true");
  spec.environment_overrides = {"NO_EQUALS_SIGN"};
  auto outcome = run_process(spec, {});
  ASSERT_FALSE(outcome);
  EXPECT_EQ(outcome.error().code, ErrorCode::internal_error);
  EXPECT_NE(outcome.error().message.find("NO_EQUALS_SIGN"), std::string::npos);
}

TEST(RunProcess, RunsInTheWorkingDirectoryItIsGiven) {
  test::TempDir dir;
  ProcessSpec spec = shell("pwd -P");
  spec.working_directory = dir.path();
  EXPECT_EQ(run(spec).output, std::filesystem::canonical(dir.path()).string() + "\n");

  spec.working_directory = dir.path() / "missing";
  ProcessOutcome const missing = run(spec);
  EXPECT_EQ(missing.exit.code, 127);
  EXPECT_NE(missing.error_tail.find("cannot enter the working directory"), std::string::npos)
      << missing.error_tail;
}

TEST(RunProcess, AProgramThatCannotBeExecutedExitsWith127AndSaysWhy) {
  ProcessSpec spec;
  spec.argv = {"/nonexistent/kopt-tool", "--version"};
  spec.stderr_target = StderrTarget::pipe;
  ProcessOutcome const outcome = run(spec);
  EXPECT_EQ(outcome.exit.code, 127);
  EXPECT_NE(outcome.error_tail.find("/nonexistent/kopt-tool: exec failed: No such file"), std::string::npos)
      << outcome.error_tail;
}

TEST(RunProcess, ManyThreadsRunChildrenAtOnceEachGettingItsOwnOutput) {
  // Each child must see EOF when it exits, never held open by a sibling started on another thread.
  std::vector<std::string> outputs(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    threads.emplace_back([&outputs, i] {
      auto outcome = run_process(shell("echo " + std::to_string(i) + "; sleep 0.2"), {.timeout = 20s});
      if (outcome) outputs[i] = outcome->output;
    });
  }
  for (auto& thread : threads) thread.join();
  for (std::size_t i = 0; i < outputs.size(); ++i) EXPECT_EQ(outputs[i], std::to_string(i) + "\n");
}

TEST(RunProcess, CommunicateKeepsWhatReadLineHadReadAhead) {
  auto child = ChildProcess::spawn(shell("printf 'first\\nsecond\\nthird'"));
  ASSERT_TRUE(child) << child.error().message;
  auto line = child->read_line(5s);
  ASSERT_TRUE(line && line->has_value());
  EXPECT_EQ(**line, "first");
  ProcessOutcome const rest = child->communicate({.timeout = 5s});
  EXPECT_EQ(rest.output, "second\nthird");
  EXPECT_FALSE(child->running());
}

TEST(ProcessOutcome, StatusNamesWhatHappened) {
  ProcessOutcome outcome;
  outcome.exit = {.exited = true, .code = 0};
  EXPECT_TRUE(outcome.status("tool"));

  outcome.exit = {.exited = true, .code = 3};
  outcome.error_tail = "model not loaded\n";
  auto failed = outcome.status("LLM command x");
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code, ErrorCode::io_error);
  EXPECT_EQ(failed.error().message,
            "LLM command x failed (exited with code 3); its stderr ends with:\nmodel not loaded\n");

  outcome.exit = {.exited = false, .code = SIGSEGV};
  outcome.error_tail.clear();
  EXPECT_EQ(outcome.status("tool").error().message,
            "tool failed (killed by signal " + std::to_string(SIGSEGV) + " (" + strsignal(SIGSEGV) + "))");

  outcome.exit = {.exited = false, .code = SIGKILL};
  outcome.timed_out = true;
  outcome.timeout = 300ms;
  EXPECT_EQ(outcome.status("tool").error().message, "tool timed out after 300 ms");
}

}  // namespace run_process_test
}  // namespace kopt
