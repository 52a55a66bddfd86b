// What the worker makes of the watch's reports (src/worker/gpu/violations.*).
#include "worker/gpu/violations.hpp"

#include <gtest/gtest.h>

namespace kopt::worker {
namespace violations_test {

TEST(Violations, SummaryCountsRepeatsAndCapsTheList) {
  EXPECT_EQ(summarize_violations({"refused system call ptrace", "refused system call ptrace", "b"}),
            "refused system call ptrace (2 times); b");
  EXPECT_EQ(summarize_violations({"a", "b", "c"}, 2), "a; b; and 1 more");
  EXPECT_EQ(summarize_violations({}), "");
}

TEST(Violations, MarkTheCandidateAndAskForARestart) {
  nlohmann::json reply = {{"reply", "evaluate"},
                          {"candidate", {{"status", "ok"}, {"message", ""}, {"max_abs_err", 0.0}}},
                          {"restart", false}};
  ASSERT_TRUE(mark_sandbox_violation(reply, {"refused system call execve"}));
  EXPECT_EQ(reply["candidate"]["status"], "sandbox_violation");
  EXPECT_NE(reply["candidate"]["message"].get<std::string>().find("refused system call execve"),
            std::string::npos);
  EXPECT_EQ(reply["restart"], true);
  EXPECT_EQ(reply["candidate"]["max_abs_err"], 0.0) << "other fields stay";

  nlohmann::json wrong = {
      {"candidate", {{"status", "wrong_output"}, {"message", "size 'small': 12 mismatches"}}}};
  ASSERT_TRUE(mark_sandbox_violation(wrong, {"x"}));
  EXPECT_NE(wrong["candidate"]["message"].get<std::string>().find("wrong_output: size 'small'"),
            std::string::npos)
      << "the verdict it would have had is kept in the message";
}

TEST(Violations, RepliesWithoutACandidateAreLeftAlone) {
  nlohmann::json error = {{"reply", "check_task"}, {"error", {{"code", "worker_error"}}}};
  nlohmann::json const before = error;
  EXPECT_FALSE(mark_sandbox_violation(error, {"refused system call ptrace"}));
  EXPECT_EQ(error, before);
  nlohmann::json ok = {{"candidate", {{"status", "ok"}}}};
  EXPECT_FALSE(mark_sandbox_violation(ok, {})) << "no report, no violation";
  EXPECT_EQ(ok["candidate"]["status"], "ok");
}

}  // namespace violations_test
}  // namespace kopt::worker
