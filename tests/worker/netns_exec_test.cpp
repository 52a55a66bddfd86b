// `kopt-worker --netns-exec -- CMD`: CMD runs in a fresh network namespace whose only interface is
// an up loopback (what --sanitize relies on: compute-sanitizer and the worker share it).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "kopt/toolchain.hpp"

namespace kopt {
namespace netns_exec_test {

std::filesystem::path worker() {
  return std::filesystem::path(KOPT_BINARY_DIR) / "bin" / "kopt-worker";
}

TEST(NetnsExec, RunsTheCommandWithOnlyAnUpLoopback) {
  ASSERT_TRUE(std::filesystem::exists(worker())) << worker();
  auto const run = run_command(shell_quote(worker().string()) +
                               " --netns-exec -- /bin/sh -c 'cat /proc/net/dev; echo flags=$(cat "
                               "/sys/class/net/lo/flags); echo netns=$KOPT_WORKER_NETNS'");
  if (run.output.find("no network namespace") != std::string::npos) {
    GTEST_SKIP() << "this system refuses network namespaces: " << run.output;
  }
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("lo:"), std::string::npos) << run.output;
  // /proc/net/dev lists the namespace's interfaces: nothing but lo.
  std::size_t interfaces = 0;
  for (std::size_t pos = run.output.find(':'); pos != std::string::npos;
       pos = run.output.find(':', pos + 1)) {
    std::size_t const line_start = run.output.rfind('\n', pos) + 1;
    if (run.output.compare(line_start, 5, "Inter") == 0 || run.output.compare(line_start, 5, " face") == 0)
      continue;
    if (run.output.compare(line_start, 6, "flags=") == 0) continue;
    ++interfaces;
  }
  EXPECT_EQ(interfaces, 1u) << run.output;
  EXPECT_NE(run.output.find("netns=1"), std::string::npos) << run.output;
}

TEST(NetnsExec, ReportsAMissingCommand) {
  auto const run = run_command(shell_quote(worker().string()) + " --netns-exec");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("expected -- COMMAND"), std::string::npos) << run.output;
}

}  // namespace netns_exec_test
}  // namespace kopt
