#include <gtest/gtest.h>

#include "run_report/run_report_fixtures.hpp"
#include "run_report/sample_report.hpp"

namespace kopt {
namespace knob_effects_test {

using test::count_of;
using test::RunFixture;

RunReportCandidate candidate(std::int64_t id, KnobValues knobs, std::optional<CandidateStatus> status,
                             std::optional<double> screen = std::nullopt) {
  RunReportCandidate c;
  c.id = CandidateId(id);
  c.knobs = std::move(knobs);
  c.status = status;
  c.screen_speedup = screen;
  return c;
}

constexpr auto kOk = CandidateStatus::ok;

// BLOCK and VEC vary, ALIGN is constant; candidate 3 (BLOCK=256, VEC=2, 4.0x) is the best.
std::vector<RunReportCandidate> grid() {
  return {candidate(1, {{"ALIGN", "16"}, {"BLOCK", "128"}, {"VEC", "4"}}, kOk, 1.0),
          candidate(2, {{"ALIGN", "16"}, {"BLOCK", "256"}, {"VEC", "4"}}, kOk, 2.0),
          candidate(3, {{"ALIGN", "16"}, {"BLOCK", "256"}, {"VEC", "2"}}, kOk, 4.0),
          candidate(4, {{"ALIGN", "16"}, {"BLOCK", "8"}, {"VEC", "2"}}, kOk, 1.5),
          candidate(5, {{"ALIGN", "16"}, {"BLOCK", "16"}, {"VEC", "2"}}, CandidateStatus::compile_error),
          candidate(6, {{"ALIGN", "16"}, {"BLOCK", "128"}, {"VEC", "2"}}, kOk, 3.0),
          candidate(7, {{"ALIGN", "16"}, {"BLOCK", "16"}, {"VEC", "4"}}, kOk, 0.5),
          candidate(8, {{"ALIGN", "16"}, {"BLOCK", "128"}, {"VEC", "1"}}, CandidateStatus::wrong_output),
          candidate(9, {{"ALIGN", "16"}, {"BLOCK", "256"}, {"VEC", "1"}}, std::nullopt)};
}

RunReportBest best_of_grid() {
  RunReportBest best;
  best.candidate = CandidateId(3);
  best.knobs = {{"ALIGN", "16"}, {"BLOCK", "256"}, {"VEC", "2"}};
  best.tier = "confirm";
  best.geomean_speedup = 3.9;  // the confirm tier's; the table uses the screen tier's 4.0
  return best;
}

std::vector<std::string> values_of(KnobEffect const& effect) {
  std::vector<std::string> values;
  for (KnobValueEffect const& value : effect.values) values.push_back(value.value);
  return values;
}

void expect_value(KnobValueEffect const& actual, std::size_t ok, std::size_t failed,
                  std::optional<double> best, std::optional<double> median,
                  std::optional<double> around_best) {
  SCOPED_TRACE(actual.value);
  EXPECT_EQ(actual.ok, ok);
  EXPECT_EQ(actual.failed, failed);
  EXPECT_EQ(actual.best, best);
  EXPECT_EQ(actual.median, median);
  EXPECT_EQ(actual.around_best, around_best);
}

TEST(KnobEffects, CountsMediansBestAndAroundBestPerValue) {
  std::vector<KnobEffect> const effects = compute_knob_effects(grid(), best_of_grid());
  ASSERT_EQ(effects.size(), 3u);
  // Largest spread first: BLOCK (3.0 / 0.5), VEC (3.0 / 1.0), then the constant ALIGN (1).
  EXPECT_EQ(effects[0].knob, "BLOCK");
  EXPECT_EQ(effects[1].knob, "VEC");
  EXPECT_EQ(effects[2].knob, "ALIGN");

  KnobEffect const& block = effects[0];
  EXPECT_EQ(block.best_value, "256");
  ASSERT_TRUE(block.spread);
  EXPECT_DOUBLE_EQ(*block.spread, 6.0);
  ASSERT_EQ(values_of(block), (std::vector<std::string>{"8", "16", "128", "256"}));
  expect_value(block.values[0], 1, 0, 1.5, 1.5, 1.5);
  expect_value(block.values[1], 1, 1, 0.5, 0.5, std::nullopt);  // BLOCK=16 VEC=2 failed to compile
  expect_value(block.values[2], 2, 1, 3.0, 2.0, 3.0);           // median of 1.0 and 3.0
  expect_value(block.values[3], 2, 0, 4.0, 3.0, 4.0);           // candidate 9 was never evaluated

  KnobEffect const& vec = effects[1];
  EXPECT_EQ(vec.best_value, "2");
  ASSERT_TRUE(vec.spread);
  EXPECT_DOUBLE_EQ(*vec.spread, 3.0);
  ASSERT_EQ(values_of(vec), (std::vector<std::string>{"1", "2", "4"}));
  expect_value(vec.values[0], 0, 1, std::nullopt, std::nullopt, std::nullopt);
  expect_value(vec.values[1], 3, 1, 4.0, 3.0, 4.0);
  expect_value(vec.values[2], 3, 0, 2.0, 1.0, 2.0);

  KnobEffect const& align = effects[2];
  ASSERT_EQ(align.values.size(), 1u);
  EXPECT_EQ(align.spread, 1.0);
  expect_value(align.values[0], 6, 2, 4.0, 1.75, 4.0);
}

TEST(KnobEffects, WithoutABestThereIsNoAroundBest) {
  std::vector<KnobEffect> const effects = compute_knob_effects(grid(), std::nullopt);
  ASSERT_EQ(effects.size(), 3u);
  EXPECT_EQ(effects[0].knob, "BLOCK");
  for (KnobEffect const& effect : effects) {
    EXPECT_FALSE(effect.best_value) << effect.knob;
    for (KnobValueEffect const& value : effect.values) EXPECT_FALSE(value.around_best) << value.value;
  }
  EXPECT_EQ(effects[0].values[2].median, 2.0);
}

TEST(KnobEffects, BestWithoutAScreenGeomeanUsesItsRecordedOne) {
  std::vector<RunReportCandidate> candidates = grid();
  candidates[2].screen_speedup.reset();  // the best: only confirmed
  candidates[2].confirm_speedup = 3.9;
  std::vector<KnobEffect> const effects = compute_knob_effects(candidates, best_of_grid());
  ASSERT_EQ(effects[0].knob, "BLOCK");
  EXPECT_EQ(effects[0].values[3].around_best, 3.9);
  EXPECT_EQ(effects[0].values[3].ok, 2u);
  EXPECT_EQ(effects[0].values[3].median, 2.0);  // only candidate 2 has a screen geomean
}

TEST(KnobEffects, NumbersInNumericOrderOtherValuesAfterThemAsFirstSeen) {
  std::vector<RunReportCandidate> candidates;
  std::int64_t id = 0;
  for (char const* value : {"fast", "128", "8", "slow", "16", "-1", "0.5", "fast"})
    candidates.push_back(candidate(++id, {{"MODE", value}}, kOk, 1.0));
  std::vector<KnobEffect> const effects = compute_knob_effects(candidates, std::nullopt);
  ASSERT_EQ(effects.size(), 1u);
  EXPECT_EQ(values_of(effects[0]), (std::vector<std::string>{"-1", "0.5", "8", "16", "128", "fast", "slow"}));
  EXPECT_EQ(effects[0].values[5].ok, 2u);
}

TEST(KnobEffects, KnobsWithoutAnOkValueComeLastWithoutSpread) {
  std::vector<RunReportCandidate> candidates = {
      candidate(1, {{"A", "1"}, {"Z", "1"}}, kOk, 1.0),
      candidate(2, {{"A", "2"}, {"Z", "1"}}, kOk, 1.2),
      candidate(3, {{"A", "1"}, {"Z", "2"}}, kOk, 5.0),
      candidate(4, {{"A", "1"}, {"M", "x"}, {"Z", "2"}}, CandidateStatus::timeout),
  };
  std::vector<KnobEffect> const effects = compute_knob_effects(candidates, std::nullopt);
  ASSERT_EQ(effects.size(), 3u);
  EXPECT_EQ(effects[0].knob, "Z");  // Z=2: 5.0, Z=1: median of 1.0 and 1.2
  EXPECT_EQ(effects[1].knob, "A");  // A=1: median of 1.0 and 5.0, A=2: 1.2
  EXPECT_EQ(effects[2].knob, "M");
  EXPECT_FALSE(effects[2].spread);
  ASSERT_EQ(effects[2].values.size(), 1u);
  EXPECT_EQ(effects[2].values[0].failed, 1u);
  ASSERT_TRUE(effects[1].spread);
  EXPECT_DOUBLE_EQ(*effects[1].spread, 3.0 / 1.2);
}

TEST(KnobEffects, NonFiniteAndNonPositiveGeomeansStayOutOfTheNumbers) {
  std::vector<RunReportCandidate> candidates = {
      candidate(1, {{"B", "1"}}, kOk, std::numeric_limits<double>::infinity()),
      candidate(2, {{"B", "1"}}, kOk, 0.0),
      candidate(3, {{"B", "2"}}, kOk, 2.0),
  };
  std::vector<KnobEffect> const effects = compute_knob_effects(candidates, std::nullopt);
  ASSERT_EQ(effects.size(), 1u);
  expect_value(effects[0].values[0], 2, 0, std::nullopt, std::nullopt, std::nullopt);
  EXPECT_EQ(effects[0].spread, 1.0);
}

TEST(KnobEffects, EmptyForFewerThanTwoCandidatesOrNoKnobs) {
  EXPECT_TRUE(compute_knob_effects({}, std::nullopt).empty());
  EXPECT_TRUE(compute_knob_effects({candidate(1, {{"B", "1"}}, kOk, 2.0)}, std::nullopt).empty());
  EXPECT_TRUE(
      compute_knob_effects({candidate(1, {}, kOk, 2.0), candidate(2, {}, kOk, 3.0)}, std::nullopt).empty());
}

TEST_F(RunFixture, RealRunCountsEveryEvaluatedCandidateOncePerKnob) {
  RunReport const report = report_of(make_run("mcts", 30, 5));
  ASSERT_TRUE(report.best);
  EXPECT_EQ(report.knob_effects.size(), 3u);  // vector_add: BLOCK, ITEMS, VEC
  std::size_t evaluated = 0;
  for (RunReportCandidate const& c : report.candidates) evaluated += c.status.has_value();
  std::optional<double> best_screen;
  for (RunReportCandidate const& c : report.candidates)
    if (c.id == report.best->candidate) best_screen = c.screen_speedup;
  ASSERT_TRUE(best_screen);
  for (std::size_t i = 0; i < report.knob_effects.size(); ++i) {
    KnobEffect const& effect = report.knob_effects[i];
    std::size_t counted = 0;
    bool saw_best = false;
    for (KnobValueEffect const& value : effect.values) {
      counted += value.ok + value.failed;
      if (value.value == effect.best_value) {
        saw_best = true;
        EXPECT_EQ(value.around_best, best_screen);
      }
    }
    EXPECT_EQ(counted, evaluated) << effect.knob;
    EXPECT_TRUE(saw_best) << effect.knob;
    EXPECT_EQ(effect.best_value, report.best->knobs.at(effect.knob));
    ASSERT_TRUE(effect.spread) << effect.knob;
    EXPECT_GE(*effect.spread, 1.0);
    if (i > 0) {
      ASSERT_TRUE(report.knob_effects[i - 1].spread);
      EXPECT_GE(*report.knob_effects[i - 1].spread, *effect.spread);
    }
  }
}

// A report whose knob names and values hold markup.
RunReport marked_up_report() {
  RunReport report = test::sample_report();
  report.candidates.push_back(candidate(4, {{"<k>", "<x>"}}, kOk, 1.5));
  report.candidates.push_back(candidate(5, {{"<k>", "a&b"}}, kOk, 3.0));
  report.knob_effects = compute_knob_effects(report.candidates, report.best);
  return report;
}

std::string knob_section(std::string const& html) {
  auto const begin = html.find("<section id=\"knobs\">");
  if (begin == std::string::npos) return "";
  return html.substr(begin, html.find("</section>", begin) - begin);
}

TEST(KnobEffectsHtml, SectionAfterTheStepsWithEscapedText) {
  RunReport const report = marked_up_report();
  std::string const html = render_run_html(report);
  auto const steps = html.find("<section id=\"steps\">");
  auto const knobs = html.find("<section id=\"knobs\">");
  ASSERT_NE(knobs, std::string::npos);
  EXPECT_LT(steps, knobs);
  EXPECT_LT(knobs, html.find("<section id=\"failures\">"));
  std::string const section = knob_section(html);
  EXPECT_NE(section.find("<h2>Knob effects</h2>"), std::string::npos);
  EXPECT_EQ(section.find("<x>"), std::string::npos);
  EXPECT_EQ(section.find("<k>"), std::string::npos);
  EXPECT_NE(section.find("&lt;x&gt;"), std::string::npos);
  EXPECT_NE(section.find("&lt;k&gt;"), std::string::npos);
  EXPECT_NE(section.find("a&amp;b"), std::string::npos);
  EXPECT_EQ(count_of(section, "rowspan=\""), report.knob_effects.size());
  std::size_t values = 0;
  for (KnobEffect const& effect : report.knob_effects) values += effect.values.size();
  EXPECT_EQ(count_of(section, "<tr"), values + 1);  // one row per value and the head
  EXPECT_EQ(count_of(section, "<script"), 0u);
}

TEST(KnobEffectsHtml, BestValueIsHighlightedWithItsNumbers) {
  std::string const section = knob_section(render_run_html(marked_up_report()));
  // BLOCK: 128 (1.25x), 256 (the best, 2.00x), <512> (failed to compile); spread 2.00 / 1.25.
  EXPECT_NE(section.find("<span class=\"spread\">spread 1.60x</span>"), std::string::npos);
  EXPECT_EQ(count_of(section, "<tr class=\"best-value\">"), 1u);
  auto const best_row = section.find("<tr class=\"best-value\">");
  auto const row_end = section.find("</tr>", best_row);
  std::string const row = section.substr(best_row, row_end - best_row);
  EXPECT_NE(row.find("256 ★"), std::string::npos);
  EXPECT_EQ(count_of(row, "2.00x"), 3u);  // best, median, around best
  EXPECT_NE(section.find("&lt;512&gt;</td><td class=\"num\">0</td><td class=\"num fails\">1</td>"),
            std::string::npos);
}

TEST(KnobEffectsHtml, EmptySaysWhy) {
  RunReport report = test::sample_report();
  report.knob_effects.clear();
  std::string const section = knob_section(render_run_html(report));
  EXPECT_NE(section.find("fewer than two candidates or no knobs"), std::string::npos);
  EXPECT_EQ(section.find("<table"), std::string::npos);
}

TEST(KnobEffectsMarkdown, OneLinePerKnobWithTheMedians) {
  std::string const md = render_run_markdown(marked_up_report());
  EXPECT_NE(md.find("\nKnob effects (median screen speedup per value, largest spread first):\n"
                    "- <k>: <x> → 1.50x · a&b → 3.00x (spread 2.00x)\n"
                    "- BLOCK: 128 → 1.25x · 256 → 2.00x (best) · <512> → failed (spread 1.60x)\n"),
            std::string::npos)
      << md;
  EXPECT_LT(md.find("Knob effects"), md.find("Failures:"));
}

TEST(KnobEffectsMarkdown, AtMostSixKnobs) {
  RunReport report = test::sample_report();
  report.knob_effects.clear();
  for (int i = 0; i < 9; ++i) report.knob_effects.push_back(KnobEffect{"K" + std::to_string(i), {}, {}, {}});
  std::string const md = render_run_markdown(report);
  EXPECT_EQ(count_of(md, "\n- K"), 6u);
  EXPECT_NE(md.find("- … 3 more knobs in the HTML and JSON reports\n"), std::string::npos);
  report.knob_effects.clear();
  EXPECT_EQ(render_run_markdown(report).find("Knob effects"), std::string::npos);
}

TEST(KnobEffectsJson, FieldsAndRoundTrip) {
  RunReport report;
  report.candidates = grid();
  report.best = best_of_grid();
  report.knob_effects = compute_knob_effects(report.candidates, report.best);
  nlohmann::json const json = to_json(report);
  EXPECT_EQ(json["schema"], "kopt.run_report/1");
  ASSERT_EQ(json["knob_effects"].size(), 3u);
  nlohmann::json const& block = json["knob_effects"][0];
  EXPECT_EQ(block["knob"], "BLOCK");
  EXPECT_EQ(block["best_value"], "256");
  EXPECT_EQ(block["spread"], 6.0);
  ASSERT_EQ(block["values"].size(), 4u);
  EXPECT_EQ(block["values"][1], (nlohmann::json{{"value", "16"},
                                                {"ok", 1},
                                                {"failed", 1},
                                                {"best", 0.5},
                                                {"median", 0.5},
                                                {"around_best", nullptr}}));
  nlohmann::json const& vec_one = json["knob_effects"][1]["values"][0];
  EXPECT_TRUE(vec_one["median"].is_null());
  EXPECT_TRUE(vec_one["best"].is_null());
  EXPECT_EQ(nlohmann::json::parse(json.dump()), json);

  report.best.reset();
  report.knob_effects = compute_knob_effects(report.candidates, report.best);
  EXPECT_TRUE(to_json(report)["knob_effects"][0]["best_value"].is_null());
  EXPECT_TRUE(to_json(RunReport{})["knob_effects"].empty());
}

}  // namespace knob_effects_test
}  // namespace kopt
