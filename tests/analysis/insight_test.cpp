// CandidateInsight: JSON round trip and field errors, choosing the current insights, the report line and
// the text handed to proposers.
#include "kopt/insight.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace kopt {
namespace insight_test {

CandidateInsight spilling_insight(std::string size = "large", std::string source = "roofline") {
  CandidateInsight insight;
  insight.size = std::move(size);
  insight.source = std::move(source);
  insight.classification.bottleneck = BottleneckClass::memory_bound;
  insight.classification.memory_level = MemoryLevel::dram;
  insight.classification.basis = ClassificationBasis::roofline;
  insight.classification.evidence = {{"derived.memory_pct_of_roofline", 86.5}, {"work.median_us", 180.0}};
  insight.classification.summary = "Memory-bound: memory is at 87% of peak.";
  insight.pct_of_sol = 61.0;
  Finding spills;
  spills.tool = "register_spills";
  spills.severity = Severity::high;
  spills.evidence = {{"static.spill_store_bytes", 512.0}, {"static.spill_load_bytes", 768.0}};
  spills.explanation = "ptxas reports 1280 bytes of register spills per thread.";
  spills.strategies = {std::string(strategy::reduce_register_pressure),
                       std::string(strategy::avoid_local_arrays)};
  Finding tail;
  tail.tool = "tail_effect";
  tail.severity = Severity::low;
  tail.evidence = {{"derived.idle_sm_fraction", 0.125}};
  tail.explanation = "The last wave leaves 12% of the SMs idle.";
  tail.strategies = {std::string(strategy::tune_block_size), std::string(strategy::reduce_register_pressure)};
  insight.findings = {spills, tail};
  return insight;
}

TEST(InsightJson, RoundTripKeepsEveryField) {
  CandidateInsight const insight = spilling_insight();
  nlohmann::json const json = to_json(insight);
  EXPECT_EQ(json["schema"], "kopt.insight/1");
  EXPECT_EQ(json["classification"]["memory_level"], "dram");
  EXPECT_EQ(json["findings"][0]["severity"], "high");
  auto back = insight_from_json(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->size, "large");
  EXPECT_EQ(back->source, "roofline");
  EXPECT_EQ(back->classification.bottleneck, BottleneckClass::memory_bound);
  EXPECT_EQ(back->classification.memory_level, MemoryLevel::dram);
  EXPECT_EQ(back->classification.basis, ClassificationBasis::roofline);
  EXPECT_EQ(back->classification.evidence, insight.classification.evidence);
  EXPECT_EQ(back->classification.summary, insight.classification.summary);
  EXPECT_EQ(back->pct_of_sol, 61.0);
  ASSERT_EQ(back->findings.size(), 2u);
  EXPECT_EQ(back->findings[0].tool, "register_spills");
  EXPECT_EQ(back->findings[0].severity, Severity::high);
  EXPECT_EQ(back->findings[0].evidence, insight.findings[0].evidence);
  EXPECT_EQ(back->findings[0].strategies, insight.findings[0].strategies);
  EXPECT_EQ(back->findings[1].severity, Severity::low);
  EXPECT_EQ(to_json(*back), json);
}

TEST(InsightJson, NonFiniteEvidenceIsLeftOut) {
  CandidateInsight insight = spilling_insight();
  insight.classification.evidence["derived.broken"] = std::numeric_limits<double>::quiet_NaN();
  nlohmann::json const json = to_json(insight);
  EXPECT_FALSE(json["classification"]["evidence"].contains("derived.broken"));
  auto back = insight_from_json(json);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->classification.evidence.count("derived.broken"), 0u);
}

// The error for `json` with one field changed; names the field.
std::string error_for(void (*damage)(nlohmann::json&)) {
  nlohmann::json json = to_json(spilling_insight());
  damage(json);
  auto parsed = insight_from_json(json, "store.db insight 4");
  EXPECT_FALSE(parsed);
  if (parsed) return "";
  EXPECT_EQ(parsed.error().code, ErrorCode::invalid_spec);
  return parsed.error().message;
}

TEST(InsightJson, ErrorsNameTheField) {
  auto has = [](std::string const& message, std::string const& part) {
    return message.find(part) != std::string::npos;
  };
  std::string m = error_for([](nlohmann::json& j) { j["schema"] = "kopt.insight/9"; });
  EXPECT_TRUE(has(m, "store.db insight 4: schema: expected \"kopt.insight/1\"")) << m;
  m = error_for([](nlohmann::json& j) { j["findings"][1]["severity"] = "urgent"; });
  EXPECT_TRUE(has(m, "findings[1]: severity: expected one of info, low, medium, high")) << m;
  m = error_for([](nlohmann::json& j) { j["classification"]["bottleneck"] = "slow"; });
  EXPECT_TRUE(has(m, "classification.bottleneck")) << m;
  EXPECT_TRUE(has(m, "'slow'")) << m;
  m = error_for([](nlohmann::json& j) { j["classification"]["memory_level"] = "l3"; });
  EXPECT_TRUE(has(m, "classification.memory_level: expected dram, l2 or l1")) << m;
  m = error_for([](nlohmann::json& j) { j["findings"][0]["evidence"]["static.spill_store_bytes"] = "many"; });
  EXPECT_TRUE(has(m, "findings[0]: evidence.static.spill_store_bytes: expected a number")) << m;
  m = error_for([](nlohmann::json& j) { j.erase("size"); });
  EXPECT_TRUE(has(m, "size: expected a string")) << m;
  m = error_for([](nlohmann::json& j) { j["source"] = "guess"; });
  EXPECT_TRUE(has(m, "source: expected \"roofline\" or \"ncu\"")) << m;
  m = error_for([](nlohmann::json& j) { j["findings"] = 3; });
  EXPECT_TRUE(has(m, "findings: expected an array")) << m;
  m = error_for([](nlohmann::json& j) { j["pct_of_sol"] = "high"; });
  EXPECT_TRUE(has(m, "pct_of_sol: expected a number")) << m;
  EXPECT_FALSE(insight_from_json(nlohmann::json::array()));
}

TEST(CurrentInsights, NewestPerSourceAndSizeNsightComputeFirst) {
  CandidateInsight medium = spilling_insight("medium");
  CandidateInsight large = spilling_insight("large");
  CandidateInsight newer_medium = spilling_insight("medium");
  newer_medium.pct_of_sol = 70.0;
  CandidateInsight profiled = spilling_insight("large", "ncu");
  std::vector<CandidateInsight> const all = {medium, large, profiled, newer_medium};
  std::vector<CandidateInsight> const current = current_insights(all);
  ASSERT_EQ(current.size(), 3u);
  EXPECT_EQ(current[0].source, "ncu");
  EXPECT_EQ(current[1].size, "medium");
  EXPECT_EQ(current[1].pct_of_sol, 70.0);  // the newer one
  EXPECT_EQ(current[2].size, "large");
  EXPECT_EQ(primary_insight(current), &current[0]);
  std::vector<CandidateInsight> const roofline_only = {medium, large};
  EXPECT_EQ(primary_insight(roofline_only)->size, "large");  // the largest timed size comes last
  EXPECT_EQ(primary_insight(std::span<CandidateInsight const>()), nullptr);
}

TEST(InsightHeadline, ClassSolAndTopFindings) {
  EXPECT_EQ(insight_headline(spilling_insight()),
            "memory-bound (DRAM), 61 % SOL; register_spills: high, tail_effect: low");
  EXPECT_EQ(insight_headline(spilling_insight(), 1),
            "memory-bound (DRAM), 61 % SOL; register_spills: high (+1 more)");
  CandidateInsight unknown;
  unknown.classification.basis = ClassificationBasis::none;
  EXPECT_EQ(insight_headline(unknown), "not classified");
}

TEST(SuggestedStrategies, MostSevereFirstEachOnce) {
  CandidateInsight roofline = spilling_insight("large");
  CandidateInsight profiled = spilling_insight("large", "ncu");
  profiled.findings = {profiled.findings[1]};  // tail_effect only, low
  profiled.findings[0].strategies = {std::string(strategy::increase_parallelism)};
  std::vector<CandidateInsight> const insights = {roofline, profiled};
  std::vector<std::string> const names = suggested_strategies(insights);
  // high spills first; at equal (low) severity the Nsight Compute finding before the roofline one.
  std::vector<std::string> const expected = {"reduce_register_pressure", "avoid_local_arrays",
                                             "increase_parallelism", "tune_block_size"};
  EXPECT_EQ(names, expected);
  EXPECT_TRUE(suggested_strategies({}).empty());
}

TEST(DescribeForPrompt, SentenceFindingsNumbersAndStrategies) {
  std::vector<CandidateInsight> const insights = {spilling_insight("medium"), spilling_insight("large")};
  std::string const text = describe_for_prompt(insights, 10000);
  // The primary (largest size) first, then the other size.
  EXPECT_EQ(text.find("Bottleneck (size large, roofline): memory-bound (DRAM), 61 % of speed of light."), 0u)
      << text;
  EXPECT_NE(text.find("Memory-bound: memory is at 87% of peak."), std::string::npos);
  EXPECT_NE(text.find("Bottleneck (size medium"), std::string::npos);
  // The same finding on both sizes is listed once, with both sizes, high before low.
  EXPECT_NE(text.find("- [high] register_spills (size medium, large): ptxas reports 1280 bytes"),
            std::string::npos)
      << text;
  EXPECT_LT(text.find("[high]"), text.find("[low]"));
  EXPECT_NE(text.find("static.spill_store_bytes=512"), std::string::npos);
  EXPECT_NE(text.find("static.spill_load_bytes=768"), std::string::npos);
  EXPECT_NE(text.find("derived.idle_sm_fraction=0.125"), std::string::npos);
  EXPECT_NE(text.find("Strategies: reduce_register_pressure, avoid_local_arrays."), std::string::npos);
  StrategyInfo const* info = find_strategy(strategy::reduce_register_pressure);
  ASSERT_NE(info, nullptr);
  EXPECT_NE(text.find("- reduce_register_pressure: " + std::string(info->description)), std::string::npos);
  EXPECT_EQ(text.find("register_spills (size"), text.rfind("register_spills (size"));  // once
}

TEST(DescribeForPrompt, RespectsMaxCharsWithWholeLines) {
  std::vector<CandidateInsight> const insights = {spilling_insight("medium"), spilling_insight("large")};
  std::string const full = describe_for_prompt(insights, 100000);
  for (std::size_t limit : {0u, 10u, 40u, 120u, 300u, 600u, 900u, 1500u}) {
    std::string const text = describe_for_prompt(insights, limit);
    EXPECT_LE(text.size(), limit) << limit;
    if (text.empty()) continue;
    EXPECT_EQ(text.back(), '\n');
    // Every line but the last note is a whole line of the full text.
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t const end = text.find('\n', start);
      std::string const line = text.substr(start, end - start + 1);
      if (!line.starts_with("[")) {
        EXPECT_NE(full.find(line), std::string::npos) << line;
      }
      start = end + 1;
    }
    if (text.size() < full.size()) {
      EXPECT_NE(text.find("left out]"), std::string::npos) << text;
    }
  }
  EXPECT_EQ(describe_for_prompt(insights, full.size()), full);
  // A budget that holds the first lines keeps the bottleneck sentence and the high finding's numbers.
  std::size_t const through_high = full.find("Strategies: reduce_register_pressure") + 200;
  std::string const cut = describe_for_prompt(insights, through_high);
  EXPECT_NE(cut.find("static.spill_store_bytes=512"), std::string::npos) << cut;
}

TEST(DescribeForPrompt, NothingRecorded) {
  EXPECT_EQ(describe_for_prompt({}, 200), "No analysis recorded for this candidate.\n");
  CandidateInsight clean = spilling_insight();
  clean.findings.clear();
  std::vector<CandidateInsight> const one = {clean};
  EXPECT_NE(describe_for_prompt(one, 2000).find("Findings: none"), std::string::npos);
}

}  // namespace insight_test
}  // namespace kopt
