// Planner and judge replies: tolerant of prose and markdown, typed failures.
#include <gtest/gtest.h>

#include "kopt/llm_roles.hpp"

namespace kopt {
namespace reply_choice_test {

std::vector<std::string> const kOptions = {"tune_block_size", "use_warp_shuffle", "vectorize_global_access"};

TEST(PlannerReply, ReadsPlanAndChoice) {
  auto reply = parse_planner_reply(
      "The kernel is memory-bound.\n\nPLAN: Load float4 per thread so each warp\n"
      "moves 512 bytes per request; keep the tail loop for C % 4.\n\nCHOICE: "
      "vectorize_global_access\n",
      kOptions);
  ASSERT_TRUE(reply.ok()) << reply.failure().message;
  EXPECT_EQ(reply->choice, "vectorize_global_access");
  EXPECT_EQ(
      reply->plan,
      "Load float4 per thread so each warp\nmoves 512 bytes per request; keep the tail loop for C % 4.");
}

TEST(PlannerReply, ToleratesMarkdownCaseAndTrailingProse) {
  auto reply = parse_planner_reply(
      "**Plan:** shuffle-reduce the row max and sum.\n**Choice:** `Use_Warp_Shuffle`.\n"
      "Let me know if you need more.\n",
      kOptions);
  ASSERT_TRUE(reply.ok()) << reply.failure().message;
  EXPECT_EQ(reply->choice, "use_warp_shuffle");  // spelled as in the options
  EXPECT_EQ(reply->plan, "shuffle-reduce the row max and sum.");
}

TEST(PlannerReply, WithoutPlanMarkerTakesTheParagraphBeforeTheChoice) {
  auto reply = parse_planner_reply(
      "Thinking...\n\nUse 128 threads per row\nso that more rows run at once.\n"
      "CHOICE: tune_block_size (occupancy)\n",
      kOptions);
  ASSERT_TRUE(reply.ok()) << reply.failure().message;
  EXPECT_EQ(reply->choice, "tune_block_size");
  EXPECT_EQ(reply->plan, "Use 128 threads per row\nso that more rows run at once.");
}

TEST(PlannerReply, TheLastChoiceWinsAndFreeNamesPassWithoutOptions) {
  auto reply =
      parse_planner_reply("PLAN: fuse the two passes\nCHOICE: a\nOn second thought:\nCHOICE: fuse_passes\n");
  ASSERT_TRUE(reply.ok()) << reply.failure().message;
  EXPECT_EQ(reply->choice, "fuse_passes");
}

TEST(PlannerReply, FailuresAreTyped) {
  auto none = parse_planner_reply("PLAN: do something clever\n", kOptions);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.failure().kind, ReplyFailureKind::no_choice);
  auto unknown = parse_planner_reply("PLAN: go\nCHOICE: use_tensor_cores\n", kOptions);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.failure().kind, ReplyFailureKind::unknown_choice);
  EXPECT_NE(unknown.failure().message.find("'use_tensor_cores'"), std::string::npos);
  EXPECT_NE(unknown.failure().message.find("tune_block_size, use_warp_shuffle, vectorize_global_access"),
            std::string::npos);
  auto no_plan = parse_planner_reply("CHOICE: tune_block_size\n", kOptions);
  ASSERT_FALSE(no_plan.ok());
  EXPECT_EQ(no_plan.failure().kind, ReplyFailureKind::no_plan);
  auto empty_name = parse_planner_reply("PLAN: x\nCHOICE:\n", kOptions);
  ASSERT_FALSE(empty_name.ok());
  EXPECT_EQ(empty_name.failure().kind, ReplyFailureKind::no_choice);
}

TEST(JudgeReply, ReadsTheVerdict) {
  auto accept = parse_judge_reply("Bounds are checked; the tail block is handled.\n\nVERDICT: accept\n");
  ASSERT_TRUE(accept.ok()) << accept.failure().message;
  EXPECT_TRUE(accept->accept);
  EXPECT_EQ(accept->reason, "Bounds are checked; the tail block is handled.");
  auto reject = parse_judge_reply("Looks fast.\n**Verdict:** REJECT: it launches on a second stream.\n");
  ASSERT_TRUE(reject.ok()) << reject.failure().message;
  EXPECT_FALSE(reject->accept);
  EXPECT_EQ(reject->reason, "it launches on a second stream");
}

TEST(JudgeReply, MissingOrUnclearVerdictIsTyped) {
  auto none = parse_judge_reply("It seems fine to me.");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.failure().kind, ReplyFailureKind::no_verdict);
  auto unclear = parse_judge_reply("VERDICT: maybe\n");
  ASSERT_FALSE(unclear.ok());
  EXPECT_EQ(unclear.failure().kind, ReplyFailureKind::no_verdict);
}

}  // namespace reply_choice_test
}  // namespace kopt
