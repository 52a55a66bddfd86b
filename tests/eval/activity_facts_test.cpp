// Kernel activity from the worker's reply into SizeResult, and from there into analysis work facts that
// the launch_overhead tool reads (profile_candidate prefers them to ncu's rows).
#include <gtest/gtest.h>

#include <algorithm>

#include "eval/reply_mapping.hpp"
#include "eval_test_support.hpp"
#include "kopt/analysis.hpp"
#include "kopt/profile_candidate.hpp"
#include "kopt/worker/protocol.hpp"
#include "kopt/worker/verdict_messages.hpp"

namespace kopt {
namespace activity_facts_test {

using eval_test::stats;
using eval_test::test_device;
using eval_test::vector_add_task;
using nlohmann::json;

json body_with_activity(json activity) {
  worker::SizeVerdict size;
  size.size = "medium";
  size.seeds = {1, 2};
  size.reference =
      worker::TimingFields{worker::sample_stats_from_json(stats(40.0)), std::nullopt, false, 0.0};
  size.candidate =
      worker::TimingFields{worker::sample_stats_from_json(stats(30.0)), std::nullopt, false, 0.0};
  size.activity = std::move(activity);
  size.reference_activity = json{{"launches", 1}, {"kernel_us", 35.0}, {"span_us", 35.0}, {"call_us", 38.0}};
  worker::EvaluateReply reply;
  reply.id = 1;
  reply.time_ms = 300.0;
  reply.activity_ms = 2.5;
  reply.sizes.push_back(std::move(size));
  return worker::to_json(reply);
}

json eight_tiny_launches() {
  return json{{"launches", 8},
              {"kernel_us", 8.0},
              {"span_us", 27.0},
              {"call_us", 30.0},
              {"memcpys", 0},
              {"memsets", 0},
              {"kernels",
               {{{"name", "chunk_add(float*, float const*, float const*, int, int)"},
                 {"count", 8},
                 {"total_us", 8.0}}}},
              {"source", "cupti"}};
}

worker::Reply reply_with(json body) {
  worker::Reply reply;
  reply.body = std::move(body);
  return reply;
}

TEST(ActivityMapping, ReplyBlocksBecomeSizeResultActivity) {
  CandidateReport report;
  auto st = apply_reply(vector_add_task(), test_device(),
                        reply_with(body_with_activity(eight_tiny_launches())), report);
  ASSERT_TRUE(st) << st.error().message;
  ASSERT_EQ(report.sizes.size(), 1u);
  ASSERT_TRUE(report.sizes[0].activity.has_value());
  EXPECT_EQ(report.sizes[0].activity->launches, 8);
  EXPECT_DOUBLE_EQ(*report.sizes[0].activity->call_us, 30.0);
  ASSERT_EQ(report.sizes[0].activity->kernels.size(), 1u);
  EXPECT_EQ(report.sizes[0].activity->kernels[0].count, 8);
  ASSERT_TRUE(report.sizes[0].reference_activity.has_value());
  EXPECT_EQ(report.sizes[0].reference_activity->launches, 1);
  EXPECT_DOUBLE_EQ(report.phases.activity_ms, 2.5);
}

TEST(ActivityMapping, AMalformedBlockRejectsTheCandidateNotACrash) {
  CandidateReport report;
  auto after = apply_reply(vector_add_task(), test_device(),
                           reply_with(body_with_activity(json{{"launches", "x"}})), report);
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(*after, WorkerAfterReply::discard);
  EXPECT_EQ(report.status, CandidateStatus::runtime_error);
  EXPECT_TRUE(report.sizes.empty());
}

TEST(ActivityFacts, CuptiFactsFeedLaunchOverhead) {
  CandidateReport report;
  ASSERT_TRUE(apply_reply(vector_add_task(), test_device(),
                          reply_with(body_with_activity(eight_tiny_launches())), report));
  WorkFacts work;
  work.median_us = 5.0;  // what ncu's serialised rows would have said: overwritten
  add_activity_facts(*report.sizes[0].activity, work);
  EXPECT_EQ(work.launches_per_call, 8);
  EXPECT_DOUBLE_EQ(*work.kernel_us_per_call, 8.0);
  EXPECT_DOUBLE_EQ(*work.median_us, 30.0);
  auto const findings = analyze(classify_roofline(work), {}, {}, work);
  auto const it = std::find_if(findings.begin(), findings.end(),
                               [](Finding const& f) { return f.tool == "launch_overhead"; });
  ASSERT_NE(it, findings.end());
  EXPECT_EQ(it->severity, Severity::high);  // 73 % of the call is gaps between eight 1 us kernels
}

TEST(ActivityFacts, KernelModeGivesOneLaunchAndLeavesTimesAlone) {
  KernelActivity a;
  a.launches = 1;
  a.from_cupti = false;
  WorkFacts work;
  work.median_us = 12.0;
  add_activity_facts(a, work);
  EXPECT_EQ(work.launches_per_call, 1);
  EXPECT_FALSE(work.kernel_us_per_call.has_value());
  EXPECT_DOUBLE_EQ(*work.median_us, 12.0);
}

}  // namespace activity_facts_test
}  // namespace kopt
