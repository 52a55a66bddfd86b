// The tree of sources: progressive widening bounds every node's children, mixed uses both LLM edits and
// library strategies, the LLM budget (calls, USD) stops the run cleanly with the best kernel confirmed, and
// bad options are errors.
#include <gtest/gtest.h>

#include <algorithm>

#include "source_search/source_search_fixtures.hpp"

namespace kopt {
namespace search_tree_test {

using SourceSearch = test::SourceSearchTest;

using test::planner_reply;

// Replies for any number of steps: planner plans, coders write whole files each a bit faster.
void answer_everything(test::ScriptedBackend& backend) {
  auto counter = std::make_shared<int>(0);
  backend.fallback = [counter](LlmRequest const& request) -> std::optional<test::ScriptedBackend::Item> {
    if (test::is_planner(request)) return planner_reply("Unroll the row loop.");
    ++*counter;
    return "Whole file.\n\n```cuda\n// fake: ok " + std::to_string(1.0 + 0.1 * *counter) +
           "\nextern \"C\" void softmax(float* out, const float* in, int N, int C) {}\n```\n";
  };
}

TEST_F(SourceSearch, ProgressiveWideningBoundsEveryNodesChildren) {
  answer_everything(backend);
  auto options = test::search_options();
  options.max_evaluations = 16;
  options.mcts.widening_k = 0.5;
  options.mcts.root_widening_boost = 0.0;
  auto result = search(options);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->stop_reason, "evaluations");
  EXPECT_EQ(result->nodes.size(), 16U);
  int deepest = 0;
  for (SourceNode const& node : result->nodes) {
    EXPECT_LE(static_cast<int>(node.children.size()),
              allowed_children(options.mcts, std::max(node.visits, 1), node.depth));
    deepest = std::max(deepest, node.depth);
  }
  // ceil(0.5 * sqrt(N)): the root may have at most 2 children in 16 visits, so the tree grows deeper.
  EXPECT_LE(result->nodes[0].children.size(), 2U);
  EXPECT_GE(deepest, 3);
  EXPECT_GT(result->incumbent_screen_speedup.value_or(0), 1.5);
}

TEST_F(SourceSearch, MixedUsesLlmEditsAndLibraryStrategies) {
  answer_everything(backend);
  StrategyLibrary const library = test::strategy_library();
  auto options = test::search_options();
  options.proposer = SourceProposer::mixed;
  options.node_budget = 2;
  options.max_evaluations = 8;
  auto result = search(options, nullptr, test::root_kernel(), &library);
  ASSERT_TRUE(result) << result.error().message;
  bool strategy = false;
  bool llm = false;
  for (SourceStep const& step : result->steps) {
    strategy = strategy || step.action.rfind("strategy:", 0) == 0;
    llm = llm || step.action == "llm_edit";
  }
  EXPECT_TRUE(strategy);
  EXPECT_TRUE(llm);
  auto const rows = candidates(result->run);
  bool recorded = false;
  for (StoredCandidate const& row : rows) {
    if (row.candidate.action.rfind("strategy:softmax", 0) == 0) {
      recorded = true;
      EXPECT_EQ(row.candidate.parent, rows[0].id);
    }
  }
  EXPECT_TRUE(recorded);
  // The planner was offered the library's strategies as options.
  ASSERT_FALSE(backend.requests.empty());
  EXPECT_NE(test::user_text(backend.requests[0]).find("softmax_warp_per_row"), std::string::npos);
  EXPECT_EQ(source_search_to_json(*result)["proposer"], "mixed");
}

TEST_F(SourceSearch, MixedDeepensATunableNodesKnobSearch) {
  answer_everything(backend);
  StrategyLibrary const library = test::strategy_library();
  auto options = test::search_options();
  options.proposer = SourceProposer::mixed;
  options.node_budget = 3;
  options.max_evaluations = 14;
  std::string const tunable = test::read_file(test::kSoftmaxDir / "tunable" / "softmax_tunable_kernel.cu");
  auto result = search(options, nullptr, tunable, &library);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_TRUE(result->nodes[0].tunable);
  bool deepened = false;
  for (SourceStep const& step : result->steps) {
    if (step.action != "deepen") continue;
    deepened = true;
    EXPECT_EQ(step.node, 0U);
    EXPECT_GT(step.evaluations, 0U);
  }
  EXPECT_TRUE(deepened);
  EXPECT_GT(result->nodes[0].evaluations, options.node_budget);
  // The knob moves inside the node's tuning are recorded as optimize records them.
  bool knob_move = false;
  for (StoredCandidate const& row : candidates(result->run))
    knob_move = knob_move || row.candidate.action.find(":+1") != std::string::npos ||
                row.candidate.action.find(":-1") != std::string::npos;
  EXPECT_TRUE(knob_move);
}

TEST_F(SourceSearch, TheSearchMemoryOfEarlierRunsIsShownToThePlanner) {
  answer_everything(backend);
  auto options = test::search_options();
  options.search_memory = true;
  options.max_evaluations = 3;
  ASSERT_TRUE(search(options));
  backend.requests.clear();
  ASSERT_TRUE(search(options));
  ASSERT_FALSE(backend.requests.empty());
  std::string const prompt = test::user_text(backend.requests[0]);
  EXPECT_NE(prompt.find("Search memory (earlier runs of this task family"), std::string::npos) << prompt;
  EXPECT_NE(prompt.find("- llm_edit: tried 2 times"), std::string::npos) << prompt;
}

TEST_F(SourceSearch, MaxCallsStopsCleanlyAndKeepsTheBestVerifiedKernel) {
  backend.queue = {planner_reply("Use float4."), test::marker_edit("ok 1.0", "ok 2.0"),
                   planner_reply("More.")};
  answer_everything(backend);
  auto budget = std::make_shared<LlmBudget>(LlmLimits{std::nullopt, 3});
  auto inner = std::make_unique<test::ScriptedBackend>(std::move(backend));
  test::ScriptedBackend* scripted = inner.get();
  auto limited = with_budget(std::move(inner), budget);
  auto options = test::search_options();
  options.max_evaluations = 20;
  auto result = search(options, limited.get());
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_NE(result->stop_reason.find("LLM budget"), std::string::npos) << result->stop_reason;
  EXPECT_EQ(scripted->requests.size(), 3U);
  EXPECT_EQ(result->llm_calls, 3);
  EXPECT_EQ(result->steps.back().status, "budget_exhausted");
  EXPECT_DOUBLE_EQ(result->incumbent_screen_speedup.value_or(0), 2.0);
  ASSERT_TRUE(result->confirmed);
  EXPECT_EQ(result->confirmed->status, CandidateStatus::ok);
  auto history = store->load_run(result->run);
  ASSERT_TRUE(history);
  EXPECT_EQ(history->run.status, RunStatus::finished);
}

TEST_F(SourceSearch, MaxCostStopsCleanlyLikewise) {
  answer_everything(backend);
  backend.cost_per_call = 0.4;
  auto budget = std::make_shared<LlmBudget>(LlmLimits{1.0, std::nullopt});
  auto limited = with_budget(std::make_unique<test::ScriptedBackend>(std::move(backend)), budget);
  auto options = test::search_options();
  options.max_evaluations = 20;
  auto result = search(options, limited.get());
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_NE(result->stop_reason.find("LLM budget"), std::string::npos) << result->stop_reason;
  EXPECT_EQ(result->llm_calls, 3);  // 0.8 spent allows a third call; 1.2 allows no fourth
  EXPECT_NEAR(result->cost_usd, 1.2, 1e-9);
  EXPECT_TRUE(result->incumbent);
  EXPECT_TRUE(result->confirmed);
}

TEST_F(SourceSearch, BadOptionsAreErrorsBeforeAnythingIsRecorded) {
  auto options = test::search_options();
  options.max_evaluations = 0;
  auto no_budget = search(options);
  ASSERT_FALSE(no_budget);
  EXPECT_NE(no_budget.error().message.find("budget"), std::string::npos);
  options = test::search_options();
  options.prompt.prompts_dir = dir.path() / "no_prompts";
  auto no_prompts = search(options);
  ASSERT_FALSE(no_prompts);
  auto runs = store->list_runs();
  ASSERT_TRUE(runs);
  EXPECT_TRUE(runs->empty());
  EXPECT_EQ(source_proposer_from_string("mixed"), SourceProposer::mixed);
  EXPECT_EQ(source_proposer_from_string("llm"), SourceProposer::llm);
  EXPECT_FALSE(source_proposer_from_string("builtin"));
}

}  // namespace search_tree_test
}  // namespace kopt
