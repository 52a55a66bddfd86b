// LLM edits as source-search actions: an edit that improves the kernel becomes the best node and is recorded
// with its parent, action and calls; edits that match nothing or twice, compile errors and wrong kernels are
// fed back for bounded repair rounds; failed calls are steps; the planner sees times, findings and siblings.
#include <gtest/gtest.h>

#include "source_search/source_search_fixtures.hpp"

namespace kopt {
namespace llm_edit_test {

using SourceSearch = test::SourceSearchTest;

using test::marker_edit;
using test::planner_reply;

constexpr char const* kPlan = "Load rows as float4 and fuse the max and sum passes (online softmax).";

TEST_F(SourceSearch, AnEditThatImprovesTheKernelIsTheBestNodeAndIsRecordedWithItsCalls) {
  backend.queue = {planner_reply(kPlan), marker_edit("ok 1.0", "ok 2.5")};
  auto options = test::search_options();
  options.max_evaluations = 2;
  auto result = search(options);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->stop_reason, "evaluations");
  ASSERT_EQ(result->nodes.size(), 2U);
  ASSERT_TRUE(result->incumbent_node);
  EXPECT_EQ(*result->incumbent_node, 1U);
  EXPECT_DOUBLE_EQ(result->incumbent_screen_speedup.value_or(0), 2.5);
  ASSERT_TRUE(result->confirmed);
  EXPECT_EQ(result->confirmed->status, CandidateStatus::ok);
  EXPECT_EQ(evaluator.seen.back().tier, TimingTier::confirm);
  EXPECT_NE(evaluator.seen.back().source.find("ok 2.5"), std::string::npos);

  ASSERT_EQ(result->steps.size(), 1U);
  SourceStep const& step = result->steps[0];
  EXPECT_EQ(step.action, "llm_edit");
  EXPECT_EQ(step.status, "ok");
  EXPECT_EQ(step.choice, "own_change");
  EXPECT_EQ(step.rationale, kPlan);
  EXPECT_EQ(step.llm_calls, 2);
  EXPECT_NEAR(step.cost_usd, 0.02, 1e-12);
  EXPECT_EQ(result->llm_calls, 2);

  auto const rows = candidates(result->run);
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_FALSE(rows[0].candidate.parent);
  EXPECT_EQ(rows[1].candidate.parent, rows[0].id);
  EXPECT_EQ(rows[1].candidate.action, "llm_edit");
  EXPECT_EQ(*result->incumbent, rows[1].id);

  auto const llm = calls(result->run);
  ASSERT_EQ(llm.size(), 2U);
  EXPECT_EQ(llm[0].call.role, "planner");
  EXPECT_EQ(llm[0].call.rationale, kPlan);  // the PLAN paragraph is the step's rationale
  EXPECT_EQ(llm[0].call.candidate, rows[1].id);
  EXPECT_EQ(llm[1].call.role, "coder");
  EXPECT_EQ(llm[1].call.candidate, rows[1].id);
  EXPECT_EQ(llm[1].call.rationale, "Applying the plan.");
  EXPECT_EQ(llm[1].call.backend, "scripted");

  auto const json = source_search_to_json(*result);
  EXPECT_EQ(json["proposer"], "llm");
  EXPECT_EQ(json["llm"]["calls"], 2);
  EXPECT_NEAR(json["llm"]["cost_usd"].get<double>(), 0.02, 1e-12);
  EXPECT_EQ(json["steps"][0]["rationale"], kPlan);
  EXPECT_EQ(json["best"]["node"], 1);
  auto const text = render_source_search(*result);
  EXPECT_NE(text.find("LLM: 2 calls, $0.0200"), std::string::npos) << text;
  EXPECT_NE(text.find("best: node 1"), std::string::npos) << text;
}

TEST_F(SourceSearch, RejectedEditsAndCompileErrorsAreFedBackToTheNextCoderPrompt) {
  backend.queue = {planner_reply(kPlan), test::edit_reply("// no such line\n", "// x\n"),  // matches nothing
                   test::edit_reply("  // step\n", "  // one step\n"),                     // matches twice
                   marker_edit("ok 1.0", "compile_error"),   // applies, does not compile
                   marker_edit("compile_error", "ok 2.0")};  // the repair
  auto options = test::search_options();
  options.max_evaluations = 3;
  options.repairs = 3;
  auto result = search(options);
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_FALSE(result->steps.empty());
  SourceStep const& step = result->steps[0];
  EXPECT_EQ(step.round_statuses,
            (std::vector<std::string>{"edit_not_found", "edit_ambiguous", "compile_error", "ok"}));
  EXPECT_EQ(step.status, "ok");
  EXPECT_EQ(step.rounds, 4);
  ASSERT_GE(backend.requests.size(), 5U);
  EXPECT_EQ(test::user_text(backend.requests[1]).find("matches no place"), std::string::npos);
  EXPECT_NE(test::user_text(backend.requests[2]).find("SEARCH text matches no place in the kernel"),
            std::string::npos)
      << test::user_text(backend.requests[2]);
  EXPECT_NE(test::user_text(backend.requests[3]).find("SEARCH text matches 2 places"), std::string::npos);
  std::string const repair = test::user_text(backend.requests[4]);
  EXPECT_NE(repair.find("blockDimx"), std::string::npos) << repair;     // the compiler's log
  EXPECT_NE(repair.find("// fake: compile_error"), std::string::npos);  // the kernel to repair
  EXPECT_DOUBLE_EQ(result->incumbent_screen_speedup.value_or(0), 2.0);

  auto const rows = candidates(result->run);
  ASSERT_EQ(rows.size(), 3U);
  EXPECT_EQ(rows[1].candidate.action, "llm_edit");
  EXPECT_EQ(rows[2].candidate.action, "llm_repair");
  EXPECT_EQ(rows[2].candidate.parent, rows[1].id);
  auto const llm = calls(result->run);
  ASSERT_GE(llm.size(), 5U);
  EXPECT_FALSE(llm[1].call.candidate);  // rejected edits made no candidate
  EXPECT_FALSE(llm[2].call.candidate);
  EXPECT_EQ(llm[3].call.candidate, rows[1].id);
  EXPECT_EQ(llm[4].call.candidate, rows[2].id);
}

TEST_F(SourceSearch, AJudgeRejectionGoesBackToTheCoderBeforeTheGpu) {
  backend.queue = {
      planner_reply(kPlan), marker_edit("ok 1.0", "ok 3.0"),
      "The edit drops the guard for the last partial row.\nVERDICT: reject: rows past N are written",
      marker_edit("ok 1.0", "ok 2.0"), "Looks right.\nVERDICT: accept"};
  auto options = test::search_options();
  options.judge = true;
  options.max_evaluations = 2;
  auto result = search(options);
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->steps.size(), 1U);
  EXPECT_EQ(result->steps[0].round_statuses, (std::vector<std::string>{"judge_rejected", "ok"}));
  EXPECT_EQ(evaluator.seen.size(),
            3U);  // the root, the accepted kernel, its confirmation: never the rejected
  for (auto const& seen : evaluator.seen) EXPECT_EQ(seen.source.find("ok 3.0"), std::string::npos);
  ASSERT_EQ(backend.requests.size(), 5U);
  EXPECT_NE(test::user_text(backend.requests[3]).find("rows past N are written"), std::string::npos);
  auto const llm = calls(result->run);
  ASSERT_EQ(llm.size(), 5U);
  EXPECT_EQ(llm[2].call.role, "judge");
  EXPECT_DOUBLE_EQ(result->incumbent_screen_speedup.value_or(0), 2.0);
}

TEST_F(SourceSearch, AKernelThatStaysWrongUsesItsRoundsAndIsAFailedChild) {
  backend.queue = {planner_reply(kPlan), marker_edit("ok 1.0", "wrong_output 1"),
                   marker_edit("wrong_output 1", "wrong_output 2")};
  auto options = test::search_options();
  options.max_evaluations = 10;
  options.repairs = 1;
  auto result = search(options);
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_GE(result->steps.size(), 1U);
  SourceStep const& step = result->steps[0];
  EXPECT_EQ(step.round_statuses, (std::vector<std::string>{"wrong_output", "wrong_output"}));
  EXPECT_EQ(step.status, "wrong_output");
  EXPECT_EQ(step.rounds, 2);  // bounded: the first reply and one repair
  EXPECT_NE(test::user_text(backend.requests[2]).find("differs from the reference on size odd"),
            std::string::npos);
  ASSERT_GE(result->nodes.size(), 2U);
  EXPECT_EQ(result->nodes[1].status, CandidateStatus::wrong_output);
  EXPECT_TRUE(result->nodes[1].dead_end);
  // The run goes on (the script is spent: failed calls until it stalls) and keeps the root.
  EXPECT_EQ(result->stop_reason, "stalled");
  EXPECT_EQ(result->incumbent_node, 0U);
  auto const rows = candidates(result->run);
  ASSERT_EQ(rows.size(), 3U);
  EXPECT_EQ(rows[2].candidate.parent, rows[1].id);
}

TEST_F(SourceSearch, FailedCallsAreRecordedStepsAndTheRunGoesOn) {
  // What the llm module returns once its retries are spent: a 429, a 500, a cut connection.
  backend.queue = {
      Error{ErrorCode::io_error, "http://stub/v1/chat/completions: HTTP 429 Too Many Requests"},
      planner_reply(kPlan),
      Error{ErrorCode::io_error, "http://stub/v1/chat/completions: HTTP 500 Internal Server Error"},
      planner_reply(kPlan),
      Error{ErrorCode::io_error, "http://stub/v1/chat/completions: connection closed mid-reply"},
      planner_reply(kPlan),
      marker_edit("ok 1.0", "ok 1.5")};
  auto options = test::search_options();
  options.max_evaluations = 2;
  auto result = search(options);
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->steps.size(), 4U);
  EXPECT_EQ(result->steps[0].status, "llm_error");
  EXPECT_NE(result->steps[0].message.find("429"), std::string::npos);
  EXPECT_EQ(result->steps[1].status, "llm_error");
  EXPECT_NE(result->steps[1].message.find("500"), std::string::npos);
  EXPECT_EQ(result->steps[2].status, "llm_error");
  EXPECT_EQ(result->steps[3].status, "ok");
  EXPECT_DOUBLE_EQ(result->incumbent_screen_speedup.value_or(0), 1.5);
  auto const llm = calls(result->run);
  ASSERT_EQ(llm.size(), 7U);
  EXPECT_EQ(llm[0].call.status, "error");
  EXPECT_NE(llm[0].call.error.find("429"), std::string::npos);
  EXPECT_EQ(llm[2].call.status, "error");
  EXPECT_EQ(llm[4].call.status, "error");
  EXPECT_EQ(llm[6].call.status, "ok");
}

TEST_F(SourceSearch, ThePlannerSeesTimesFindingsAndSiblingsAndThePromptStaysInBudget) {
  backend.queue = {planner_reply(kPlan),           marker_edit("ok 1.0", "wrong_output"),
                   test::edit_reply("x\n", "y\n"), test::edit_reply("x\n", "y\n"),
                   planner_reply("Try again."),    marker_edit("ok 1.0", "ok 1.2")};
  auto options = test::search_options();
  options.max_evaluations = 3;
  options.prompt.max_prompt_tokens = 12'000;
  auto result = search(options);
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_GE(backend.requests.size(), 5U);
  ASSERT_TRUE(test::is_planner(backend.requests[0]));
  std::string const first = test::user_text(backend.requests[0]);
  EXPECT_NE(first.find("Its measured times"), std::string::npos) << first;
  EXPECT_NE(first.find("medium"), std::string::npos);
  EXPECT_NE(first.find("large"), std::string::npos);
  EXPECT_NE(first.find("Profiler findings on the current kernel"), std::string::npos) << first;
  EXPECT_NE(first.find("own_change"), std::string::npos);
  EXPECT_NE(first.find("// fake: ok 1.0"), std::string::npos);  // the node's kernel
  ASSERT_TRUE(test::is_planner(backend.requests[4]));
  std::string const second = test::user_text(backend.requests[4]);
  EXPECT_NE(second.find("What sibling attempts from this kernel did"), std::string::npos) << second;
  EXPECT_NE(second.find("llm_edit: own_change"), std::string::npos) << second;
  EXPECT_NE(second.find("wrong_output"), std::string::npos);
  for (LlmRequest const& request : backend.requests) {
    EXPECT_LE(estimate_tokens(request.system) + estimate_tokens(test::user_text(request)), 12'000U);
  }
}

}  // namespace llm_edit_test
}  // namespace kopt
