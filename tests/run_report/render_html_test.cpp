#include <gtest/gtest.h>

#include "run_report/run_report_fixtures.hpp"
#include "run_report/sample_report.hpp"

namespace kopt {
namespace render_html_test {

using test::RunFixture;

using test::count_of;

TEST(RenderHtml, TextFromTheStoreIsEscaped) {
  std::string const html = render_run_html(test::sample_report());
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_EQ(html.find("</script>"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("// &lt;b&gt;bold&lt;/b&gt; &amp; "), std::string::npos);
  EXPECT_NE(html.find("soft&lt;b&gt;max&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(html.find("tasks/a&amp;b"), std::string::npos);
  EXPECT_NE(html.find("BLOCK=&lt;512&gt;"), std::string::npos);
  EXPECT_NE(html.find("error: expected &#39;&lt;&#39; &amp; &#39;&gt;&#39;"), std::string::npos);
  EXPECT_EQ(html.find("more"), std::string::npos) << "only the first line of a failure message";
}

TEST(RenderHtml, IsOneSelfContainedWellNestedDocument) {
  std::string const html = render_run_html(test::sample_report());
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
  EXPECT_TRUE(html.ends_with("</html>\n"));
  for (char const* tag : {"html", "head", "body", "main", "section", "details", "table", "tr", "svg", "pre",
                          "ol", "li", "style", "header", "dl"}) {
    std::string const open = std::string("<") + tag;
    std::string const close = std::string("</") + tag + ">";
    // "<tr" also starts "<track": none of those here; "<s" tags are matched exactly below.
    EXPECT_EQ(count_of(html, open + ">") + count_of(html, open + " "), count_of(html, close)) << tag;
  }
  for (char const* external : {"<script", "<link", "<img", "<iframe", "src=", "url(", "@import", "https://"})
    EXPECT_EQ(html.find(external), std::string::npos) << external;
  // The only URL is the SVG namespace, which is never fetched.
  EXPECT_EQ(count_of(html, "http://"), count_of(html, "xmlns=\"http://www.w3.org/2000/svg\""));
}

TEST(RenderHtml, ShowsBestChainFailuresAndCandidates) {
  std::string const html = render_run_html(test::sample_report());
  EXPECT_NE(html.find("<span class=\"big\">2.00x</span>"), std::string::npos);
  EXPECT_NE(html.find("confirm tier"), std::string::npos);
  EXPECT_NE(html.find("<details id=\"best-source\">"), std::string::npos);
  EXPECT_NE(html.find("100 µs"), std::string::npos);            // reference time
  EXPECT_NE(html.find("50.0 µs ± 500 ns"), std::string::npos);  // candidate time ± IQR
  EXPECT_NE(html.find("% of speed of light"), std::string::npos);
  EXPECT_NE(html.find("44% · 2100 GB/s"), std::string::npos);
  EXPECT_NE(html.find("1e-07"), std::string::npos);  // max rel err
  EXPECT_NE(html.find("BLOCK 128 → 256"), std::string::npos);
  EXPECT_NE(html.find("1.25x → 2.00x (+60.0%)"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"del\">-#define BLOCK 128</span>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"add\">+#define BLOCK 256</span>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"ctx\"> int x;</span>"), std::string::npos);
  EXPECT_NE(html.find("compile_error</span> × 1"), std::string::npos);
  for (int id : {1, 2, 3})
    EXPECT_NE(html.find("<tr id=\"cand-" + std::to_string(id) + "\">"), std::string::npos);
  EXPECT_NE(html.find("badge warn\">interrupted"), std::string::npos);
}

TEST(RenderSvg, OneMarkerPerEvaluation) {
  RunReport const report = test::sample_report();
  std::string const svg = render_progress_svg(report);
  EXPECT_EQ(count_of(svg, "data-eval=\""), report.evaluations.size());
  for (RunReportEvaluation const& e : report.evaluations)
    EXPECT_EQ(count_of(svg, "data-eval=\"" + std::to_string(e.index) + "\""), 1u);
  EXPECT_EQ(count_of(svg, "class=\"pt fail\""), 1u);
  EXPECT_EQ(count_of(svg, "class=\"pt confirm\""), 1u);
  EXPECT_EQ(count_of(svg, "class=\"pt ok\""), 2u);
  EXPECT_EQ(count_of(svg, "<polyline class=\"best\""), 1u);
  EXPECT_NE(svg.find(">1x</text>"), std::string::npos);  // a y tick at the reference
  EXPECT_NE(svg.find(">2x</text>"), std::string::npos);
  EXPECT_NE(svg.find("evaluation (4 in all)"), std::string::npos);
}

TEST_F(RunFixture, SvgOfARealRunHasOnePointPerEvaluation) {
  RunReport const report = report_of(make_run("mcts", 30, 5));
  ASSERT_GT(report.evaluations.size(), 30u);  // the search's points plus the confirm evaluation
  std::string const svg = render_progress_svg(report);
  EXPECT_EQ(count_of(svg, "data-eval=\""), report.evaluations.size());
  std::size_t failed = 0;
  for (auto const& e : report.evaluations) failed += e.status != CandidateStatus::ok;
  EXPECT_EQ(count_of(svg, "class=\"pt fail\""), failed);
  std::string const html = render_run_html(report);
  EXPECT_NE(html.find(svg), std::string::npos);
}

TEST(RenderSvg, EmptyRunSaysSo) {
  RunReport report;
  std::string const svg = render_progress_svg(report);
  EXPECT_EQ(count_of(svg, "data-eval=\""), 0u);
  EXPECT_NE(svg.find("no evaluations recorded"), std::string::npos);
  std::string const html = render_run_html(report);
  EXPECT_NE(html.find("No candidate of this run passed verification"), std::string::npos);
}

}  // namespace render_html_test
}  // namespace kopt
