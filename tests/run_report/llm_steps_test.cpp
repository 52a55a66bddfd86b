// A generate run in the report: each step that came from an LLM call shows the call's rationale, cost,
// tokens and latency next to its diff and measured effect; the run's LLM totals; failed calls without a
// candidate. The store is written by hand as `kopt generate` writes it.
#include <gtest/gtest.h>

#include <string>

#include "kopt/run_report.hpp"
#include "kopt/store.hpp"
#include "run_report/run_report_fixtures.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace llm_steps_test {

using test::count_of;

constexpr char const* kDraftSource = "__global__ void softmax(float* y) {\n  y[0] = 1.0f;\n}\n";
constexpr char const* kRepairSource =
    "__global__ void softmax(float* y) {\n  y[threadIdx.x] = 1.0f;  // one warp per row\n}\n";

struct GenerateRunReport : ::testing::Test {
  void SetUp() override {
    auto opened = Store::open(dir.path() / "kopt.db");
    ASSERT_TRUE(opened) << opened.error().message;
    store.emplace(std::move(*opened));
  }

  LlmCallRecord call(std::string role, std::string purpose) {
    LlmCallRecord record;
    record.role = std::move(role);
    record.purpose = std::move(purpose);
    record.model = "model-x";
    record.backend = "openai";
    record.request_sha256 = "00";
    return record;
  }

  // Draft (1.25x) -> its repair (2.5x, the best), plus a failed call that made no candidate.
  RunId make_generate_run(bool priced = true) {
    kopt::Run run = test::sample_run("softmax");
    run.options = {{"schema", "kopt.optimize/1"},
                   {"strategy", "generate"},
                   {"source_path", ""},
                   {"source", ""},
                   {"flags", nlohmann::json::array()},
                   {"confirm", false},
                   {"search_memory", false},
                   {"objective", "runtime"}};
    run.seed = 0;
    run.budget = {{"llm_calls", 10}, {"usd", nullptr}};
    auto id = store->create_run(run);
    EXPECT_TRUE(id) << id.error().message;

    LlmCallRecord draft_call = call("generator", "softmax_warp_per_row, draft");
    draft_call.input_tokens = 1200;
    draft_call.output_tokens = 800;
    draft_call.cost_usd = 0.0042;
    draft_call.latency_ms = 3200.0;
    draft_call.rationale = "Strategy softmax_warp_per_row: each warp owns one row & reduces with <shuffles>.";
    auto draft_call_id = store->add_llm_call(*id, draft_call);
    EXPECT_TRUE(draft_call_id);

    Candidate draft = test::sample_candidate("draft");
    draft.source = kDraftSource;
    draft.knobs = nlohmann::json::object();
    draft.action = "generate:softmax_warp_per_row";
    auto draft_id = store->add_candidate(*id, draft);
    EXPECT_TRUE(draft_id);
    EXPECT_TRUE(store->set_llm_call_candidate(*draft_call_id, *draft_id));
    EXPECT_TRUE(store->add_evaluation(*draft_id, test::sample_evaluation(1.25, "GPU-1", "13.0", "screen")));

    LlmCallRecord failed = call("generator", "softmax_block_per_row, draft");
    failed.status = "error";
    failed.error = "HTTP 500 from the API\nsecond line";
    failed.latency_ms = 150.0;
    failed.cost_usd = priced ? std::optional<double>(0.0) : std::nullopt;
    EXPECT_TRUE(store->add_llm_call(*id, failed));

    LlmCallRecord repair_call = call("coder", "softmax_warp_per_row, repair 1");
    repair_call.input_tokens = 2000;
    repair_call.output_tokens = 500;
    repair_call.cost_usd = 0.0058;
    repair_call.latency_ms = 850.0;
    repair_call.rationale = "Index by threadIdx.x so that every lane writes its own element.";
    auto repair_call_id = store->add_llm_call(*id, repair_call);
    EXPECT_TRUE(repair_call_id);

    Candidate repair = test::sample_candidate("repair", *draft_id);
    repair.source = kRepairSource;
    repair.knobs = nlohmann::json::object();
    repair.action = "repair:softmax_warp_per_row";
    auto repair_id = store->add_candidate(*id, repair);
    EXPECT_TRUE(repair_id);
    EXPECT_TRUE(store->set_llm_call_candidate(*repair_call_id, *repair_id));
    EXPECT_TRUE(store->add_evaluation(*repair_id, test::sample_evaluation(2.5, "GPU-1", "13.0", "screen")));
    EXPECT_TRUE(store->finish_run(*id, RunStatus::finished));
    draft_candidate = *draft_id;
    repair_candidate = *repair_id;
    return *id;
  }

  RunReport report_of(RunId run) {
    auto report = build_run_report(*store, run);
    EXPECT_TRUE(report) << report.error().message;
    return report ? std::move(*report) : RunReport{};
  }

  test::TempDir dir;
  std::optional<Store> store;
  CandidateId draft_candidate;
  CandidateId repair_candidate;
};

TEST_F(GenerateRunReport, TheCallsAreOnTheCandidatesTheirRepliesBecame) {
  RunReport const report = report_of(make_generate_run());
  ASSERT_EQ(report.candidates.size(), 2U);
  ASSERT_EQ(report.candidates[0].llm_calls.size(), 1U);
  EXPECT_EQ(report.candidates[0].llm_calls[0].role, "generator");
  EXPECT_EQ(report.candidates[0].llm_calls[0].input_tokens, 1200);
  ASSERT_EQ(report.candidates[1].llm_calls.size(), 1U);
  EXPECT_EQ(report.candidates[1].llm_calls[0].purpose, "softmax_warp_per_row, repair 1");
  EXPECT_EQ(report.candidates[1].llm_calls[0].rationale,
            "Index by threadIdx.x so that every lane writes its own element.");
  ASSERT_TRUE(report.llm);
  EXPECT_EQ(report.llm->calls, 3U);
  EXPECT_EQ(report.llm->failed, 1U);
  ASSERT_TRUE(report.llm->cost_usd);
  EXPECT_NEAR(*report.llm->cost_usd, 0.01, 1e-12);
  EXPECT_EQ(report.llm->input_tokens, 3200);
  EXPECT_EQ(report.llm->output_tokens, 1300);
  ASSERT_EQ(report.llm->failed_without_candidate.size(), 1U);
  EXPECT_EQ(report.llm->failed_without_candidate[0].purpose, "softmax_block_per_row, draft");
  ASSERT_EQ(report.steps.size(), 2U);
  EXPECT_EQ(report.steps[1].candidate, repair_candidate);
  EXPECT_EQ(report.steps[1].from, draft_candidate);
  EXPECT_TRUE(report.steps[1].linked);
}

TEST_F(GenerateRunReport, AnUnpricedCallLeavesTheCostUnknown) {
  RunReport const report = report_of(make_generate_run(false));
  ASSERT_TRUE(report.llm);
  EXPECT_FALSE(report.llm->cost_usd);
  EXPECT_NE(render_run_markdown(report).find("LLM: 3 calls (1 failed), cost unknown, 4500 tokens"),
            std::string::npos);
}

TEST_F(GenerateRunReport, HtmlShowsEachStepsCallNextToItsDiffAndEffect) {
  std::string const html = render_run_html(report_of(make_generate_run()));
  EXPECT_NE(html.find("LLM: 3 calls (1 failed), $0.0100, 4500 tokens"), std::string::npos);
  // the draft's rationale, escaped, with its numbers
  EXPECT_NE(html.find("Strategy softmax_warp_per_row: each warp owns one row &amp; reduces with "
                      "&lt;shuffles&gt;."),
            std::string::npos);
  EXPECT_EQ(html.find("<shuffles>"), std::string::npos);
  EXPECT_NE(html.find("$0.0042 · 1200 in / 800 out tokens · 3.2 s"), std::string::npos);
  // the repair step: role and purpose, rationale, cost, then the effect and the diff already shown
  auto const repair = html.find("softmax_warp_per_row, repair 1");
  ASSERT_NE(repair, std::string::npos);
  auto const rationale = html.find("Index by threadIdx.x so that every lane writes its own element.", repair);
  ASSERT_NE(rationale, std::string::npos);
  auto const numbers = html.find("$0.0058 · 2000 in / 500 out tokens · 850 ms", rationale);
  ASSERT_NE(numbers, std::string::npos);
  auto const diff = html.find("Diff against the previous step (+1 −1 lines)", numbers);
  EXPECT_NE(diff, std::string::npos);
  EXPECT_NE(html.find("1.25x → 2.50x (+100.0%)"), std::string::npos);
  EXPECT_LT(html.find("1.25x → 2.50x (+100.0%)"), rationale);  // the effect heads the step
  // the failed call without a candidate, in the short list
  EXPECT_NE(html.find("Failed LLM calls that made no candidate"), std::string::npos);
  EXPECT_NE(html.find("HTTP 500 from the API second line"), std::string::npos);
  EXPECT_EQ(count_of(html, "class=\"llm\""), 2U);
  EXPECT_EQ(html.find("<script"), std::string::npos);  // self-contained: nothing fetched
  EXPECT_EQ(html.find("href=\"http"), std::string::npos);
  EXPECT_EQ(html.find("src=\""), std::string::npos);
}

TEST_F(GenerateRunReport, MarkdownShowsTheSameInText) {
  std::string const md = render_run_markdown(report_of(make_generate_run()));
  EXPECT_NE(md.find("LLM: 3 calls (1 failed), $0.0100, 4500 tokens"), std::string::npos) << md;
  EXPECT_NE(md.find("   - coder · softmax_warp_per_row, repair 1 · model-x (openai): Index by threadIdx.x so "
                    "that every lane writes its own element. ($0.0058 · 2000 in / 500 out tokens · 850 ms)"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("`repair:softmax_warp_per_row` -: 1.25x → 2.50x (+100.0%)"), std::string::npos) << md;
  EXPECT_NE(md.find("- failed without a candidate: generator · softmax_block_per_row, draft · model-x "
                    "(openai): HTTP 500 from the API second line"),
            std::string::npos)
      << md;
}

TEST_F(GenerateRunReport, JsonCarriesTheCallsAndTotals) {
  RunReport const report = report_of(make_generate_run());
  auto const parsed = nlohmann::json::parse(to_json(report).dump());
  ASSERT_EQ(parsed["candidates"].size(), 2U);
  auto const& call = parsed["candidates"][1]["llm_calls"][0];
  EXPECT_EQ(call["role"], "coder");
  EXPECT_EQ(call["candidate"], repair_candidate.value());
  EXPECT_EQ(call["rationale"], "Index by threadIdx.x so that every lane writes its own element.");
  EXPECT_DOUBLE_EQ(call["cost_usd"].get<double>(), 0.0058);
  EXPECT_EQ(call["input_tokens"], 2000);
  EXPECT_EQ(call["from_cache"], false);
  EXPECT_EQ(parsed["llm"]["calls"], 3);
  EXPECT_EQ(parsed["llm"]["failed"], 1);
  EXPECT_EQ(parsed["llm"]["failed_without_candidate"][0]["candidate"], nullptr);
  EXPECT_EQ(parsed["llm"]["failed_without_candidate"][0]["status"], "error");
}

struct OptimizeRunReport : test::RunFixture {};

TEST_F(OptimizeRunReport, ARunWithoutLlmCallsHasNoLlmParts) {
  RunReport const report = report_of(make_run("exhaustive", 6));
  EXPECT_FALSE(report.llm);
  for (RunReportCandidate const& candidate : report.candidates) EXPECT_TRUE(candidate.llm_calls.empty());
  std::string const html = render_run_html(report);
  EXPECT_EQ(html.find("LLM:"), std::string::npos);
  EXPECT_EQ(html.find(".llm {"), std::string::npos);
  EXPECT_EQ(render_run_markdown(report).find("LLM:"), std::string::npos);
  EXPECT_TRUE(to_json(report)["llm"].is_null());
}

}  // namespace llm_steps_test
}  // namespace kopt
