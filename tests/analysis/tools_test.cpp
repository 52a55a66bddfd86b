// Every tool: a trigger case and a non-trigger case, on fixture metrics and facts.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "fixtures.hpp"
#include "kopt/analysis.hpp"

namespace kopt {
namespace tools_test {

std::optional<Finding> run_tool(std::string_view name, Metrics const& m, StaticFacts const& facts = {},
                                WorkFacts const& work = {}) {
  AnalysisTool const* tool = find_analysis_tool(name);
  if (tool == nullptr) {
    ADD_FAILURE() << "no tool " << name;
    return std::nullopt;
  }
  std::optional<Finding> finding = tool->examine(m, facts, work);
  if (finding) {
    EXPECT_EQ(finding->tool, name);
  }
  return finding;
}

bool suggests(Finding const& finding, std::string_view strategy_name) {
  return std::find(finding.strategies.begin(), finding.strategies.end(), strategy_name) !=
         finding.strategies.end();
}

bool mentions(Finding const& finding, std::string_view text) {
  return finding.explanation.find(text) != std::string::npos;
}

// ---- uncoalesced_global_access -----------------------------------------------------------------------

TEST(UncoalescedGlobalAccess, Stride33IsHigh) {
  std::optional<Finding> const f = run_tool("uncoalesced_global_access", fixtures::stride33_copy());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::high);
  EXPECT_DOUBLE_EQ(f->evidence.at("derived.global_ld_sectors_per_request"), 32.0);
  EXPECT_TRUE(mentions(*f, "4.0 of the 32 bytes")) << f->explanation;
  EXPECT_TRUE(mentions(*f, "88% wasted")) << f->explanation;
  EXPECT_FALSE(mentions(*f, "global stores")) << "stores use whole sectors: " << f->explanation;
  EXPECT_TRUE(suggests(*f, strategy::coalesce_global_access));
}

TEST(UncoalescedGlobalAccess, Float4CopyIsClean) {
  EXPECT_FALSE(run_tool("uncoalesced_global_access", fixtures::float4_copy()).has_value());
}

TEST(UncoalescedGlobalAccess, SectorsPerRequestWithoutBytesMetric) {
  Metrics const m{{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 24.0e6},
                  {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 1.0e6}};
  std::optional<Finding> const f = run_tool("uncoalesced_global_access", m);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::medium);
  Metrics const ideal{{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 16.0e6},
                      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 1.0e6}};
  EXPECT_FALSE(run_tool("uncoalesced_global_access", ideal).has_value());
}

// ---- shared_bank_conflicts ---------------------------------------------------------------------------

TEST(SharedBankConflicts, ThirtyTwoWayIsHigh) {
  std::optional<Finding> const f = run_tool("shared_bank_conflicts", fixtures::bank_conflicts());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::high);
  EXPECT_NEAR(f->evidence.at("derived.shared_loads_n_way"), 32.0, 1e-9);
  EXPECT_NEAR(f->evidence.at("derived.shared_loads_conflict_fraction"), 62.9 / 65.0, 1e-9);
  EXPECT_TRUE(mentions(*f, "32.0-way")) << f->explanation;
  EXPECT_FALSE(mentions(*f, "shared stores")) << f->explanation;
  EXPECT_TRUE(suggests(*f, strategy::pad_shared_memory));
}

TEST(SharedBankConflicts, BelowTenPercentIsNotReported) {
  Metrics const m{{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 9.0},
                  {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 100.0},
                  {"smsp__sass_inst_executed_op_shared_ld.sum", 95.0}};
  EXPECT_FALSE(run_tool("shared_bank_conflicts", m).has_value());
  EXPECT_FALSE(run_tool("shared_bank_conflicts", fixtures::float4_copy()).has_value());
}

TEST(SharedBankConflicts, StoresAreCheckedSeparately) {
  Metrics const m{{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 30.0},
                  {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 100.0},
                  {"smsp__sass_inst_executed_op_shared_st.sum", 70.0}};
  std::optional<Finding> const f = run_tool("shared_bank_conflicts", m);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::medium);
  EXPECT_TRUE(mentions(*f, "shared stores")) << f->explanation;
}

// ---- occupancy ---------------------------------------------------------------------------------------

TEST(Occupancy, RegisterLimitedIsNamed) {
  std::optional<Finding> const f = run_tool("occupancy", fixtures::latency_bound());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::low);  // 50% theoretical: below 80, not below 50
  EXPECT_TRUE(mentions(*f, "registers per thread (4 blocks per SM)")) << f->explanation;
  EXPECT_FALSE(mentions(*f, "shared memory")) << f->explanation;
  EXPECT_TRUE(suggests(*f, strategy::reduce_register_pressure));
  EXPECT_FALSE(suggests(*f, strategy::balance_workload));  // achieved is only 4 points lower
}

TEST(Occupancy, AchievedFarBelowTheoretical) {
  Metrics const m{{"sm__maximum_warps_per_active_cycle_pct", 100.0},
                  {"sm__warps_active.avg.pct_of_peak_sustained_active", 55.0}};
  std::optional<Finding> const f = run_tool("occupancy", m);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::medium);
  EXPECT_DOUBLE_EQ(f->evidence.at("derived.occupancy_gap_points"), 45.0);
  EXPECT_TRUE(suggests(*f, strategy::balance_workload));
}

TEST(Occupancy, FullOccupancyIsNotReported) {
  EXPECT_FALSE(run_tool("occupancy", fixtures::float4_copy()).has_value());
}

TEST(Occupancy, VeryLowTheoreticalIsHigh) {
  Metrics const m{{"sm__maximum_warps_per_active_cycle_pct", 12.5},
                  {"launch__occupancy_limit_shared_mem", 1.0},
                  {"launch__occupancy_limit_registers", 2.0}};
  std::optional<Finding> const f = run_tool("occupancy", m);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::high);
  EXPECT_TRUE(suggests(*f, strategy::reduce_shared_memory));
  EXPECT_FALSE(suggests(*f, strategy::reduce_register_pressure));
}

// ---- register_spills ---------------------------------------------------------------------------------

StaticFacts spill_kernel() {
  StaticFacts facts;
  facts.registers_per_thread = 32;
  facts.spill_store_bytes = 980;
  facts.spill_load_bytes = 980;
  facts.stack_bytes = 456;
  facts.local_loads = 241;
  facts.local_stores = 243;
  return facts;
}

TEST(RegisterSpills, PtxasSpillsAreHigh) {
  std::optional<Finding> const f = run_tool("register_spills", Metrics{}, spill_kernel());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::high);
  EXPECT_TRUE(mentions(*f, "980 bytes of spill stores")) << f->explanation;
  EXPECT_TRUE(mentions(*f, "484 LDL/STL")) << f->explanation;
  EXPECT_TRUE(suggests(*f, strategy::reduce_register_pressure));
}

TEST(RegisterSpills, LocalArrayWithoutSpillsIsLow) {
  StaticFacts facts;
  facts.spill_store_bytes = 0;
  facts.spill_load_bytes = 0;
  facts.stack_bytes = 128;
  std::optional<Finding> const f = run_tool("register_spills", Metrics{}, facts);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::low);
  EXPECT_TRUE(suggests(*f, strategy::avoid_local_arrays));
  EXPECT_FALSE(suggests(*f, strategy::reduce_register_pressure));
}

TEST(RegisterSpills, MeasuredLocalTrafficRaisesSeverity) {
  Metrics const m{{"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", 41e6 / 32},
                  {"l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", 41e6 / 32},
                  {"dram__bytes_read.sum", 100e6},
                  {"dram__bytes_write.sum", 100e6}};
  StaticFacts facts;
  facts.stack_bytes = 128;
  std::optional<Finding> const f = run_tool("register_spills", m, facts);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::high);
  EXPECT_NEAR(f->evidence.at("derived.local_bytes_per_dram_byte"), 0.41, 1e-9);
}

TEST(RegisterSpills, CleanKernelIsNotReported) {
  StaticFacts facts;
  facts.registers_per_thread = 40;
  facts.spill_store_bytes = 0;
  facts.spill_load_bytes = 0;
  facts.stack_bytes = 0;
  facts.local_loads = 0;
  facts.local_stores = 0;
  EXPECT_FALSE(run_tool("register_spills", fixtures::float4_copy(), facts).has_value());
}

// ---- warp_divergence ---------------------------------------------------------------------------------

TEST(WarpDivergence, DivergentKernelIsReported) {
  std::optional<Finding> const f = run_tool("warp_divergence", fixtures::divergent());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::medium);
  EXPECT_TRUE(mentions(*f, "16.8 of 32 threads")) << f->explanation;
  EXPECT_TRUE(mentions(*f, "2% of branch targets")) << f->explanation;
  EXPECT_TRUE(suggests(*f, strategy::reduce_divergence));
}

TEST(WarpDivergence, FullWarpsAreNotReported) {
  EXPECT_FALSE(run_tool("warp_divergence", fixtures::ffma_loop()).has_value());
  Metrics const edge{{"smsp__thread_inst_executed_per_inst_executed.ratio", 24.0}};
  EXPECT_FALSE(run_tool("warp_divergence", edge).has_value());
}

TEST(WarpDivergence, HalfWarpIsHigh) {
  Metrics const m{{"smsp__thread_inst_executed_per_inst_executed.ratio", 8.0}};
  std::optional<Finding> const f = run_tool("warp_divergence", m);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::high);
}

// ---- tail_effect -------------------------------------------------------------------------------------

TEST(TailEffect, OneBlockGridIsHigh) {
  std::optional<Finding> const f = run_tool("tail_effect", fixtures::one_block());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::high);
  EXPECT_TRUE(mentions(*f, "1 blocks for 132 SMs")) << f->explanation;
  EXPECT_TRUE(suggests(*f, strategy::increase_parallelism));
}

TEST(TailEffect, PartialLastWave) {
  std::optional<Finding> const f = run_tool("tail_effect", fixtures::sol(30.0, 40.0, 1.2));
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::medium);  // 40% idle
  EXPECT_NEAR(f->evidence.at("derived.tail_idle_fraction"), 0.4, 1e-9);
  EXPECT_TRUE(mentions(*f, "ncu's upper estimate: 50%")) << f->explanation;
}

TEST(TailEffect, ManyWavesOrWholeWavesAreNotReported) {
  EXPECT_FALSE(run_tool("tail_effect", fixtures::float4_copy()).has_value());  // 62 waves
  EXPECT_FALSE(run_tool("tail_effect", fixtures::sol(30.0, 40.0, 3.0)).has_value());
  EXPECT_FALSE(run_tool("tail_effect", fixtures::sol(30.0, 40.0, 1.97)).has_value());  // 1.5% idle
}

TEST(TailEffect, GridFromWorkFacts) {
  WorkFacts work;
  work.grid_blocks = 100;
  work.sm_count = 132;
  std::optional<Finding> const f = run_tool("tail_effect", Metrics{}, {}, work);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::medium);  // 24% of SMs idle
}

// ---- missing_tensor_cores ----------------------------------------------------------------------------

WorkFacts gemm_work() {
  WorkFacts work;
  work.flops = 2.0 * 4096.0 * 4096.0 * 4096.0;
  work.bytes = 3.0 * 4096.0 * 4096.0 * 2.0;  // bf16: AI about 1365 FLOP/B
  work.tensor_cores_allowed = true;
  work.dtype = DType::bf16;
  work.ceilings = DeviceCeilings{4.81e12, 66.9e12, 788e12};
  return work;
}

TEST(MissingTensorCores, FfmaGemmIsHigh) {
  StaticFacts facts;
  facts.tensor_instructions = 0;
  std::optional<Finding> const f =
      run_tool("missing_tensor_cores", fixtures::ffma_loop(), facts, gemm_work());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::high);
  EXPECT_NEAR(f->evidence.at("derived.fp32_ridge"), 66.9 / 4.81, 1e-9);
  EXPECT_TRUE(mentions(*f, "11.8x")) << f->explanation;
  EXPECT_TRUE(suggests(*f, strategy::use_tensor_cores));
}

TEST(MissingTensorCores, MetricsStandInForSass) {
  std::optional<Finding> const f = run_tool("missing_tensor_cores", fixtures::ffma_loop(), {}, gemm_work());
  EXPECT_TRUE(f.has_value());
}

TEST(MissingTensorCores, NotReportedWhenUsedForbiddenLowIntensityOrUnknown) {
  StaticFacts with_hgmma;
  with_hgmma.tensor_instructions = 96;
  EXPECT_FALSE(run_tool("missing_tensor_cores", Metrics{}, with_hgmma, gemm_work()).has_value());

  StaticFacts without;
  without.tensor_instructions = 0;
  WorkFacts forbidden = gemm_work();
  forbidden.tensor_cores_allowed = false;
  EXPECT_FALSE(run_tool("missing_tensor_cores", Metrics{}, without, forbidden).has_value());

  WorkFacts streaming = gemm_work();
  streaming.flops = 1e9;
  streaming.bytes = 1e9;  // 1 FLOP/B, below the ridge
  EXPECT_FALSE(run_tool("missing_tensor_cores", Metrics{}, without, streaming).has_value());

  // Neither SASS nor tensor metrics: cannot tell.
  EXPECT_FALSE(run_tool("missing_tensor_cores", Metrics{}, {}, gemm_work()).has_value());
}

// ---- unvectorized_access -----------------------------------------------------------------------------

TEST(UnvectorizedAccess, ScalarLoadsAreReported) {
  StaticFacts facts;
  facts.global_loads_128 = 0;
  facts.global_loads_64 = 0;
  facts.global_loads_32 = 2;
  facts.global_stores_128 = 0;
  facts.global_stores_32 = 1;
  std::optional<Finding> const f = run_tool("unvectorized_access", Metrics{}, facts);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::medium);
  EXPECT_TRUE(mentions(*f, "global loads: 2 32-bit")) << f->explanation;
  EXPECT_TRUE(suggests(*f, strategy::vectorize_global_access));
}

TEST(UnvectorizedAccess, Float4KernelOrUnknownSassIsNotReported) {
  StaticFacts facts;
  facts.global_loads_128 = 1;
  facts.global_loads_32 = 1;
  facts.global_stores_128 = 1;
  EXPECT_FALSE(run_tool("unvectorized_access", Metrics{}, facts).has_value());
  EXPECT_FALSE(run_tool("unvectorized_access", Metrics{}, StaticFacts{}).has_value());
}

// ---- latency_stalls ----------------------------------------------------------------------------------

TEST(LatencyStalls, LongScoreboardIsHigh) {
  std::optional<Finding> const f = run_tool("latency_stalls", fixtures::latency_bound());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::high);  // 70% of the latency, issue 18% of cycles
  EXPECT_TRUE(mentions(*f, "long_scoreboard (28.0 of 40.0 cycles")) << f->explanation;
  EXPECT_FALSE(mentions(*f, "wait (")) << f->explanation;
  EXPECT_FALSE(mentions(*f, "barrier")) << f->explanation;
  EXPECT_TRUE(suggests(*f, strategy::use_async_copy));
  EXPECT_TRUE(suggests(*f, strategy::increase_ilp));
}

TEST(LatencyStalls, BusySchedulerIsNotReported) {
  Metrics m = fixtures::latency_bound();
  m["smsp__issue_active.avg.per_cycle_active"] = 0.85;
  EXPECT_FALSE(run_tool("latency_stalls", m).has_value());
}

TEST(LatencyStalls, SpreadStallsAreNotReported) {
  Metrics m = fixtures::latency_bound();
  m[fixtures::stall("long_scoreboard")] = 10.0;  // 25%: no single dominant reason
  EXPECT_FALSE(run_tool("latency_stalls", m).has_value());
}

// ---- sync_contention ---------------------------------------------------------------------------------

TEST(SyncContention, BarrierStallsAreReported) {
  Metrics m = fixtures::latency_bound();
  m[fixtures::stall("barrier")] = 24.0;  // 60%
  std::optional<Finding> const f = run_tool("sync_contention", m);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::high);
  EXPECT_TRUE(mentions(*f, "60%")) << f->explanation;
  EXPECT_TRUE(suggests(*f, strategy::reduce_synchronization));
}

TEST(SyncContention, ContendedAtomics) {
  StaticFacts facts;
  facts.atomics = 1;
  std::optional<Finding> const f = run_tool("sync_contention", fixtures::latency_bound(), facts);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::medium);  // long_scoreboard is 70%
  EXPECT_TRUE(suggests(*f, strategy::privatize_atomics));
  std::optional<Finding> const unmeasured = run_tool("sync_contention", Metrics{}, facts);
  ASSERT_TRUE(unmeasured.has_value());
  EXPECT_EQ(unmeasured->severity, Severity::info);
}

TEST(SyncContention, NoBarrierStallsNoAtomicsIsNotReported) {
  StaticFacts facts;
  facts.atomics = 0;
  facts.barriers = 2;
  EXPECT_FALSE(run_tool("sync_contention", fixtures::latency_bound(), facts).has_value());
}

// ---- launch_overhead ---------------------------------------------------------------------------------

TEST(LaunchOverhead, GapsDominateTheCall) {
  WorkFacts work;
  work.launches_per_call = 12;
  work.median_us = 40.0;
  work.kernel_us_per_call = 8.0;
  std::optional<Finding> const f = run_tool("launch_overhead", Metrics{}, {}, work);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::high);
  EXPECT_TRUE(mentions(*f, "80% of the 40.0 us call")) << f->explanation;
  EXPECT_TRUE(suggests(*f, strategy::fuse_launches));
  EXPECT_TRUE(suggests(*f, strategy::use_cuda_graphs));
}

TEST(LaunchOverhead, ModerateGapsAreMedium) {
  WorkFacts work;
  work.launches_per_call = 3;
  work.median_us = 100.0;
  work.kernel_us_per_call = 70.0;
  std::optional<Finding> const f = run_tool("launch_overhead", Metrics{}, {}, work);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::medium);
}

TEST(LaunchOverhead, SingleLongLaunchIsNotReported) {
  WorkFacts work;
  work.launches_per_call = 1;
  work.median_us = 124.0;
  work.kernel_us_per_call = 123.6;
  EXPECT_FALSE(run_tool("launch_overhead", Metrics{}, {}, work).has_value());
  work.launches_per_call = 2;
  work.kernel_us_per_call = std::nullopt;  // 62 us per launch
  EXPECT_FALSE(run_tool("launch_overhead", Metrics{}, {}, work).has_value());
}

}  // namespace tools_test
}  // namespace kopt
