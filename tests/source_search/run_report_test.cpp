// `kopt report RUN` of a source search: the LLM steps appear with the planner's rationale, their cost and
// their measured effect, because every call is recorded with the candidate it became.
#include "kopt/run_report.hpp"

#include <gtest/gtest.h>

#include "source_search/source_search_fixtures.hpp"

namespace kopt {
namespace run_report_test {

using SourceSearch = test::SourceSearchTest;

TEST_F(SourceSearch, TheRunReportShowsTheLlmStepsRationale) {
  std::string const plan = "Give each row to one warp and reduce with shuffles instead of shared memory.";
  backend.queue = {test::planner_reply(plan), test::marker_edit("ok 1.0", "ok 1.8")};
  auto options = test::search_options();
  options.max_evaluations = 2;
  auto result = search(options);
  ASSERT_TRUE(result) << result.error().message;

  auto report = build_run_report(*store, result->run);
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_TRUE(report->llm);
  EXPECT_EQ(report->llm->calls, 2U);
  bool linked = false;
  for (auto const& candidate : report->candidates) {
    for (auto const& call : candidate.llm_calls) linked = linked || call.rationale == plan;
  }
  EXPECT_TRUE(linked);
  std::string const markdown = render_run_markdown(*report);
  EXPECT_NE(markdown.find(plan), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("LLM: 2 calls"), std::string::npos) << markdown;
  EXPECT_NE(render_run_html(*report).find("Give each row to one warp"), std::string::npos);
}

}  // namespace run_report_test
}  // namespace kopt
