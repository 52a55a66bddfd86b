// --require-isolation: accepted by the commands that run candidates (and doctor), refused by the others,
// and handed to the workers through KOPT_WORKER_REQUIRE_ISOLATION (src/cli/isolation_option.*).
#include "cli/isolation_option.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "parse_support.hpp"

namespace kopt::cli {
namespace isolation_option_test {

using test::parse;

TEST(RequireIsolation, TheCommandsThatRunCandidatesTakeIt) {
  for (auto const& args : std::vector<std::vector<char const*>>{
           {"eval", "tasks/softmax", "a.cu", "--require-isolation"},
           {"optimize", "tasks/softmax", "--from", "k.cu", "--require-isolation"},
           {"optimize", "tasks/softmax", "--require-isolation"},
           {"bench", "suites/", "--require-isolation"},
           {"generate", "tasks/softmax", "--intent", "softmax", "--require-isolation"},
           {"doctor", "--require-isolation"}}) {
    auto const run = parse(args);
    ASSERT_TRUE(run.parsed.arguments) << args[0] << ": " << run.err;
    EXPECT_TRUE(run.parsed.arguments->global.require_isolation) << args[0];
  }
  auto const without = parse({"eval", "tasks/softmax", "a.cu"});
  ASSERT_TRUE(without.parsed.arguments) << without.err;
  EXPECT_FALSE(without.parsed.arguments->global.require_isolation);
}

TEST(RequireIsolation, CommandsThatRunNoCandidateRefuseIt) {
  auto const run = parse({"runs", "--require-isolation"});
  EXPECT_FALSE(run.parsed.arguments);
  EXPECT_EQ(run.parsed.exit_code, 2) << run.err;
}

TEST(RequireIsolation, ReachesTheWorkerThroughItsSetting) {
  ::unsetenv("KOPT_WORKER_REQUIRE_ISOLATION");
  apply_require_isolation(false);
  EXPECT_EQ(std::getenv("KOPT_WORKER_REQUIRE_ISOLATION"), nullptr);
  apply_require_isolation(true);
  ASSERT_NE(std::getenv("KOPT_WORKER_REQUIRE_ISOLATION"), nullptr);
  EXPECT_EQ(std::string(std::getenv("KOPT_WORKER_REQUIRE_ISOLATION")), "1");
  ::unsetenv("KOPT_WORKER_REQUIRE_ISOLATION");
}

}  // namespace isolation_option_test
}  // namespace kopt::cli
