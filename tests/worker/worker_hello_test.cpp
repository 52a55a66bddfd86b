// The kopt-worker binary's side of the hello exchange: a hello of another protocol version (or one it
// cannot read) is refused before the worker touches the GPU, so this runs on machines without one.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "kopt/toolchain.hpp"
#include "kopt/worker/protocol.hpp"

namespace kopt {
namespace worker_hello_test {

std::filesystem::path worker() {
  return std::filesystem::path(KOPT_BINARY_DIR) / "bin" / "kopt-worker";
}

CommandResult send_hello(std::string const& line) {
  return run_command("printf '%s\\n' " + shell_quote(line) + " | " + shell_quote(worker().string()) +
                     " --no-sandbox --no-calibration 2>/dev/null");
}

TEST(WorkerHello, AnotherProtocolVersionIsRefusedWithBothVersions) {
  ASSERT_TRUE(std::filesystem::exists(worker())) << worker();
  int const other = worker::kProtocolVersion + 1;
  auto const run = send_hello(R"({"op":"hello","id":0,"protocol":)" + std::to_string(other) + "}");
  EXPECT_EQ(run.exit_code, worker::kExitProtocol) << run.output;
  EXPECT_NE(run.output.find(R"("reply":"hello")"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("kopt speaks worker protocol " + std::to_string(other) + ", this side speaks " +
                            std::to_string(worker::kProtocolVersion)),
            std::string::npos)
      << run.output;
}

TEST(WorkerHello, AHelloWithoutAVersionIsRefusedNamingTheField) {
  ASSERT_TRUE(std::filesystem::exists(worker())) << worker();
  auto const run = send_hello(R"({"op":"hello","id":0})");
  EXPECT_EQ(run.exit_code, worker::kExitProtocol) << run.output;
  EXPECT_NE(run.output.find("malformed hello request: protocol: missing"), std::string::npos) << run.output;
}

}  // namespace worker_hello_test
}  // namespace kopt
