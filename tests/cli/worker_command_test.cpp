// `kopt worker` run as a user would: what it needs is checked before it joins a farm (a queue, a URL it can
// use, sane lease and delivery limits), with the exit codes docs/cli.md gives. Evaluating jobs needs a GPU:
// tests/gpu covers that part.
#include <gtest/gtest.h>

#include <string>

#include "support/kopt_process.hpp"

namespace kopt::test {
namespace worker_command_test {

using WorkerCommandTest = KoptProcessTest;

TEST_F(WorkerCommandTest, RefusesWhatItCannotServeBeforeJoining) {
  auto no_queue = run("", "worker --gpu 0");
  EXPECT_EQ(no_queue.exit_code, 2);
  EXPECT_NE(no_queue.err.find("KOPT_QUEUE"), std::string::npos) << no_queue.err;
  auto tls = run("", "worker --queue rediss://head:6379");
  EXPECT_EQ(tls.exit_code, 2);
  EXPECT_NE(tls.err.find("TLS"), std::string::npos) << tls.err;
  EXPECT_EQ(run("", "worker --queue redis://head --lease 0").exit_code, 2);
  EXPECT_EQ(run("", "worker --queue redis://head --max-deliveries 0").exit_code, 2);
  EXPECT_EQ(run("", "worker --queue redis://head --gpu -1").exit_code, 2);
  auto help = run("", "worker --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("kopt worker --queue redis://"), std::string::npos) << help.out;
}

}  // namespace worker_command_test
}  // namespace kopt::test
