// The registry, stage-2 metric lists, analyze()'s selection and ordering, and end-to-end cases on the
// fixture kernels: the matching tool fires and no unrelated tool reports high severity.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "fixtures.hpp"
#include "kopt/analysis.hpp"

namespace kopt {
namespace analyze_test {

constexpr std::array<BottleneckClass, 6> kClasses{
    BottleneckClass::memory_bound, BottleneckClass::compute_bound,         BottleneckClass::latency_bound,
    BottleneckClass::small_grid,   BottleneckClass::launch_overhead_bound, BottleneckClass::balanced};

TEST(Registry, HoldsEveryToolExactlyOnce) {
  std::multiset<std::string> names;
  for (AnalysisTool const& tool : analysis_tools()) names.emplace(tool.name);
  std::multiset<std::string> const expected{
      "uncoalesced_global_access", "shared_bank_conflicts", "occupancy",
      "register_spills",           "warp_divergence",       "tail_effect",
      "missing_tensor_cores",      "unvectorized_access",   "latency_stalls",
      "sync_contention",           "launch_overhead"};
  EXPECT_EQ(names, expected);
}

TEST(Registry, EveryToolIsUsable) {
  for (AnalysisTool const& tool : analysis_tools()) {
    EXPECT_NE(tool.examine, nullptr) << tool.name;
    EXPECT_FALSE(tool.description.empty()) << tool.name;
    EXPECT_TRUE(tool.always || !tool.triggers.empty()) << tool.name << " can never run";
    EXPECT_EQ(find_analysis_tool(tool.name), &tool);
    for (std::string_view metric : tool.metrics)
      EXPECT_NE(metric.find("__"), std::string_view::npos) << metric;
  }
  EXPECT_EQ(find_analysis_tool("no_such_tool"), nullptr);
}

TEST(Registry, StallMetricNamesAreComplete) {
  AnalysisTool const* tool = find_analysis_tool("latency_stalls");
  ASSERT_NE(tool, nullptr);
  EXPECT_NE(std::find(tool->metrics.begin(), tool->metrics.end(),
                      "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"),
            tool->metrics.end());
}

TEST(Strategies, CatalogIsUniqueAndCoversEveryFinding) {
  std::set<std::string_view> names;
  for (StrategyInfo const& info : strategy_catalog()) {
    EXPECT_TRUE(names.insert(info.name).second) << "duplicate " << info.name;
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_EQ(find_strategy(info.name), &info);
  }
  EXPECT_EQ(find_strategy("make_it_fast"), nullptr);
  EXPECT_NE(find_strategy(strategy::vectorize_global_access), nullptr);
}

TEST(Stage2Metrics, IsTheUnionOfTriggeredTools) {
  for (BottleneckClass c : kClasses) {
    std::vector<std::string> const metrics = stage2_metrics(c);
    EXPECT_TRUE(std::is_sorted(metrics.begin(), metrics.end())) << to_string(c);
    EXPECT_EQ(std::adjacent_find(metrics.begin(), metrics.end()), metrics.end()) << to_string(c);
    std::set<std::string> expected;
    for (AnalysisTool const& tool : analysis_tools())
      if (tool.triggered_by(c))
        for (std::string_view m : tool.metrics) expected.emplace(m);
    EXPECT_EQ(std::set<std::string>(metrics.begin(), metrics.end()), expected) << to_string(c);
  }
}

TEST(Stage2Metrics, DependsOnTheClass) {
  std::vector<std::string> const memory = stage2_metrics(BottleneckClass::memory_bound);
  std::vector<std::string> const latency = stage2_metrics(BottleneckClass::latency_bound);
  std::vector<std::string> const launch = stage2_metrics(BottleneckClass::launch_overhead_bound);
  auto has = [](std::vector<std::string> const& v, std::string const& name) {
    return std::binary_search(v.begin(), v.end(), name);
  };
  std::string const bytes_per_sector = "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio";
  std::string const stall = "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio";
  EXPECT_TRUE(has(memory, bytes_per_sector));
  EXPECT_FALSE(has(launch, bytes_per_sector));
  EXPECT_TRUE(has(latency, stall));
  EXPECT_TRUE(has(latency, "sm__maximum_warps_per_active_cycle_pct"));
  EXPECT_FALSE(has(memory, "sm__maximum_warps_per_active_cycle_pct"));
  // Always-on tools contribute to every class.
  EXPECT_TRUE(has(launch, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"));
  EXPECT_LT(launch.size(), latency.size());
}

TEST(Stage1Metrics, HasSpeedOfLightAndLaunch) {
  std::vector<std::string> const metrics = stage1_metrics();
  EXPECT_TRUE(std::is_sorted(metrics.begin(), metrics.end()));
  for (std::string const name : {"sm__throughput.avg.pct_of_peak_sustained_elapsed",
                                 "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
                                 "launch__waves_per_multiprocessor", "launch__occupancy_limit_registers"})
    EXPECT_TRUE(std::binary_search(metrics.begin(), metrics.end(), name)) << name;
}

// The headline reads stage 1's names (so every number it quotes was collected) and leaves the rest unset.
TEST(MetricHeadline, QuotesStageOneNumbersAndLeavesMissingOnesUnset) {
  std::vector<std::string> const stage1 = stage1_metrics();
  Metrics metrics;
  for (std::string const& name : stage1) metrics[name] = 1.0;
  metrics["gpu__time_duration.sum"] = 2500.0;  // ns
  metrics["gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"] = 62.5;
  metrics["dram__bytes_read.sum"] = 3e9;
  metrics["dram__bytes_write.sum"] = 1e9;
  MetricHeadline const h = metric_headline(metrics);
  ASSERT_TRUE(h.duration_us && h.dram_pct && h.memory_pct && h.l2_pct && h.sm_pct &&
              h.achieved_occupancy_pct && h.dram_bytes);
  EXPECT_DOUBLE_EQ(*h.duration_us, 2.5);
  EXPECT_DOUBLE_EQ(*h.dram_pct, 62.5);
  EXPECT_DOUBLE_EQ(*h.dram_bytes, 4e9);
  EXPECT_DOUBLE_EQ(*h.sm_pct, 1.0);

  MetricHeadline const empty =
      metric_headline(Metrics{{"sm__throughput.avg.pct_of_peak_sustained_elapsed", 40.0}});
  EXPECT_EQ(empty.sm_pct, 40.0);
  EXPECT_FALSE(empty.dram_pct);
  EXPECT_FALSE(empty.duration_us);
  EXPECT_FALSE(empty.dram_bytes);
}

std::vector<std::string> tools_of(std::vector<Finding> const& findings) {
  std::vector<std::string> out;
  out.reserve(findings.size());
  for (Finding const& f : findings) out.push_back(f.tool);
  return out;
}

bool has_tool(std::vector<Finding> const& findings, std::string_view tool) {
  return std::any_of(findings.begin(), findings.end(), [&](Finding const& f) { return f.tool == tool; });
}

TEST(Analyze, SortedBySeverityHighestFirst) {
  // Latency-bound kernel with spills (high), long-scoreboard stalls (high), register-limited occupancy (low)
  // and a stray atomic (medium: contended).
  Metrics const m = fixtures::latency_bound();
  StaticFacts facts;
  facts.spill_store_bytes = 980;
  facts.spill_load_bytes = 980;
  facts.atomics = 1;
  Classification const c = classify(m, WorkFacts{});
  ASSERT_EQ(c.bottleneck, BottleneckClass::latency_bound);
  std::vector<Finding> const findings = analyze(c, m, facts, WorkFacts{});
  ASSERT_EQ(findings.size(), 4u) << ::testing::PrintToString(tools_of(findings));
  EXPECT_TRUE(std::is_sorted(findings.begin(), findings.end(), [](Finding const& a, Finding const& b) {
    return static_cast<int>(a.severity) > static_cast<int>(b.severity);
  }));
  // Ties keep registry order: register_spills is listed before latency_stalls.
  EXPECT_EQ(tools_of(findings),
            (std::vector<std::string>{"register_spills", "latency_stalls", "sync_contention", "occupancy"}));
}

TEST(Analyze, OnlyTriggeredToolsRun) {
  // Divergence metrics in a memory-bound kernel: warp_divergence is not triggered by memory_bound.
  Metrics m = fixtures::float4_copy();
  m["smsp__thread_inst_executed_per_inst_executed.ratio"] = 10.0;
  Classification const c = classify(m, WorkFacts{});
  ASSERT_EQ(c.bottleneck, BottleneckClass::memory_bound);
  EXPECT_FALSE(has_tool(analyze(c, m, {}, {}), "warp_divergence"));
  Classification latency = c;
  latency.bottleneck = BottleneckClass::latency_bound;
  EXPECT_TRUE(has_tool(analyze(latency, m, {}, {}), "warp_divergence"));
}

// End to end on the fixture kernels: the matching tool fires, and no other tool says "high".
void expect_only_high(std::vector<Finding> const& findings, std::string_view tool) {
  EXPECT_TRUE(has_tool(findings, tool)) << ::testing::PrintToString(tools_of(findings));
  for (Finding const& f : findings)
    if (f.tool != tool) {
      EXPECT_NE(f.severity, Severity::high) << f.tool << ": " << f.explanation;
    }
}

TEST(Analyze, FixtureKernelsAreFlaggedByTheMatchingTool) {
  {
    Metrics const m = fixtures::stride33_copy();
    expect_only_high(analyze(classify(m, {}), m, {}, {}), "uncoalesced_global_access");
  }
  {
    Metrics const m = fixtures::bank_conflicts();
    expect_only_high(analyze(classify(m, {}), m, {}, {}), "shared_bank_conflicts");
  }
  {
    Metrics const m = fixtures::divergent();
    Classification const c = classify(m, {});
    EXPECT_EQ(c.bottleneck, BottleneckClass::compute_bound);
    expect_only_high(analyze(c, m, {}, {}), "warp_divergence");
  }
  {
    Metrics const m = fixtures::one_block();
    expect_only_high(analyze(classify(m, {}), m, {}, {}), "tail_effect");
  }
  {
    StaticFacts facts;
    facts.spill_store_bytes = 980;
    facts.spill_load_bytes = 980;
    facts.stack_bytes = 456;
    Metrics const m = fixtures::sol(30.0, 45.0, 7.76, 4096.0);
    expect_only_high(analyze(classify(m, {}), m, facts, {}), "register_spills");
  }
}

TEST(Analyze, CleanCopyHasNoFindings) {
  Metrics const m = fixtures::float4_copy();
  StaticFacts facts;
  facts.global_loads_128 = 1;
  facts.global_stores_128 = 1;
  facts.spill_store_bytes = 0;
  facts.spill_load_bytes = 0;
  facts.stack_bytes = 0;
  facts.atomics = 0;
  std::vector<Finding> const findings = analyze(classify(m, {}), m, facts, {});
  EXPECT_TRUE(findings.empty()) << ::testing::PrintToString(tools_of(findings));
}

TEST(Analyze, EmptyInputsGiveNoFindingsAndNoCrash) {
  Classification const c = classify(Metrics{}, WorkFacts{});
  for (BottleneckClass bottleneck : kClasses) {
    Classification forced = c;
    forced.bottleneck = bottleneck;
    EXPECT_TRUE(analyze(forced, Metrics{}, StaticFacts{}, WorkFacts{}).empty()) << to_string(bottleneck);
  }
}

TEST(Analyze, EveryFindingNamesCatalogStrategiesAndEvidence) {
  Metrics m = fixtures::latency_bound();
  for (auto const& [name, value] : fixtures::stride33_copy()) m.emplace(name, value);
  for (auto const& [name, value] : fixtures::bank_conflicts()) m.emplace(name, value);
  m["smsp__thread_inst_executed_per_inst_executed.ratio"] = 12.0;
  m[fixtures::stall("barrier")] = 20.0;
  m["launch__grid_size"] = 64.0;  // a small grid for tail_effect
  StaticFacts facts;
  facts.spill_store_bytes = 64;
  facts.atomics = 4;
  facts.global_loads_128 = 0;
  facts.global_loads_32 = 4;
  facts.tensor_instructions = 0;
  WorkFacts work;
  work.flops = 1e12;
  work.bytes = 1e9;
  work.tensor_cores_allowed = true;
  work.launches_per_call = 5;
  work.median_us = 20.0;
  work.grid_blocks = 64;
  work.sm_count = 132;
  std::set<std::string> seen;
  for (BottleneckClass bottleneck : kClasses) {
    Classification c;
    c.bottleneck = bottleneck;
    for (Finding const& f : analyze(c, m, facts, work)) {
      seen.insert(f.tool);
      EXPECT_FALSE(f.explanation.empty()) << f.tool;
      EXPECT_FALSE(f.evidence.empty()) << f.tool;
      EXPECT_FALSE(f.strategies.empty()) << f.tool;
      for (std::string const& s : f.strategies) EXPECT_NE(find_strategy(s), nullptr) << f.tool << ": " << s;
    }
  }
  EXPECT_EQ(seen.size(), analysis_tools().size()) << ::testing::PrintToString(seen);
}

}  // namespace analyze_test
}  // namespace kopt
