// Exact values from the real H200 captures (fixtures/README.md: bench/analysis_capture, ncu 2025.3.1).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fixture_files.hpp"
#include "kopt/profile.hpp"

namespace kopt {
namespace h200_fixtures_test {

using testing::read_fixture;

std::vector<std::string> const kKernels{
    "streaming_copy(float4 *, const float4 *, int)", "scalar_copy(float *, const float *, int)",
    "strided_copy(float *, const float *, int)",     "bank_conflicts(float *, int)",
    "divergent(float *, const float *, int, int)",   "spilling(float *, const int *, int)",
    "register_spill(float *, const float *, int)",   "ffma_loop(float *, int)",
    "tiny_grid(float *, const float *, int)",        "atomic_hotspot(float *, const float *, int)",
};

std::vector<std::string> kernel_names(std::vector<NcuKernelRow> const& rows) {
  std::vector<std::string> names;
  names.reserve(rows.size());
  for (NcuKernelRow const& row : rows) names.push_back(row.kernel_name);
  return names;
}

TEST(H200Fixtures, FullRawPage) {
  auto const rows = parse_ncu_raw_csv(read_fixture("h200_ncu_full_raw.csv"), "h200_ncu_full_raw.csv");
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(kernel_names(*rows), kKernels);
  NcuKernelRow const& copy = (*rows)[0];
  EXPECT_EQ(copy.id, 0);
  EXPECT_EQ(copy.metric("gpu__time_duration.sum"), 132160.0);
  EXPECT_EQ(copy.units.at("gpu__time_duration.sum"), "ns");
  EXPECT_EQ(copy.metric("dram__bytes_read.sum"), 268445696.0);
  EXPECT_EQ(copy.metric("sm__throughput.avg.pct_of_peak_sustained_elapsed"), 5.95);
  EXPECT_EQ(copy.metric("launch__occupancy_limit_registers"), 10.0);
  EXPECT_EQ(copy.units.at("launch__occupancy_limit_registers"), "block");
  EXPECT_EQ(copy.text("device__attribute_display_name"), "NVIDIA H200");
  EXPECT_EQ(copy.text("sass__inst_executed_register_spilling_mem_local"), "no data");
  EXPECT_EQ(copy.text("derived_tempMetric4"), "nan");  // not a number: kept as text
  EXPECT_FALSE(copy.metric("derived_tempMetric4").has_value());

  NcuKernelRow const& strided = (*rows)[2];
  EXPECT_EQ(strided.id, 2);
  EXPECT_EQ(strided.grid, (LaunchDim{262144, 1, 1}));
  EXPECT_EQ(strided.block, (LaunchDim{256, 1, 1}));
  EXPECT_EQ(strided.metric("launch__grid_size"), 262144.0);
  EXPECT_EQ(strided.metric("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"), 4.0);
  EXPECT_EQ(copy.metric("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"), 32.0);
  EXPECT_GT(copy.metrics.size(), 2000u);  // about 2,238 columns, most of them numbers
}

TEST(H200Fixtures, MixedStdoutGivesTheSameKernels) {
  auto const rows = parse_ncu_raw_csv(read_fixture("h200_ncu_mixed_stdout.csv"));
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  EXPECT_EQ(kernel_names(*rows), kKernels);
  EXPECT_EQ((*rows)[0].metric("gpu__time_duration.sum"), 130880.0);
  EXPECT_EQ((*rows)[2].metric("gpu__time_duration.sum"), 1179584.0);
}

TEST(H200Fixtures, LongFormatSpeedOfLightSection) {
  auto const rows = parse_ncu_raw_csv(read_fixture("h200_ncu_long_sol.csv"));
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(kernel_names(*rows), kKernels);
  NcuKernelRow const& copy = (*rows)[0];
  EXPECT_EQ(copy.metric("Duration"), 132384.0);
  EXPECT_EQ(copy.units.at("Duration"), "ns");
  EXPECT_EQ(copy.metric("DRAM Throughput"), 80.91);
  EXPECT_EQ(copy.metric("DRAM Frequency"), 3198533558.94);
  EXPECT_EQ(copy.units.at("DRAM Frequency"), "hz");
  EXPECT_EQ(copy.grid, (LaunchDim{1056, 1, 1}));
  EXPECT_EQ((*rows)[1].metric("Duration"), 172544.0);
}

TEST(H200Fixtures, CuobjdumpAndNvdisasmAgree) {
  SassSummary const cuobjdump = parse_sass(read_fixture("h200_cuobjdump_sass.txt"));
  SassSummary const nvdisasm = parse_sass(read_fixture("h200_nvdisasm.txt"));
  ASSERT_EQ(cuobjdump.functions.size(), 10u);
  ASSERT_EQ(nvdisasm.functions.size(), cuobjdump.functions.size());
  for (SassFunction const& function : cuobjdump.functions) {
    SCOPED_TRACE(function.name);
    EXPECT_EQ(function.arch, "sm_90");
    SassFunction const* other = nvdisasm.find(function.name);
    ASSERT_NE(other, nullptr);
    EXPECT_EQ(other->instructions, function.instructions);
    EXPECT_EQ(other->mnemonics, function.mnemonics);
  }
}

TEST(H200Fixtures, SassFactsOfThePurposeBuiltKernels) {
  SassSummary const summary = parse_sass(read_fixture("h200_cuobjdump_sass.txt"));
  auto function = [&](char const* name) {
    SassFunction const* found = summary.find(name);
    EXPECT_NE(found, nullptr) << name;
    return found != nullptr ? *found : SassFunction{};
  };
  EXPECT_TRUE(function("_Z14streaming_copyP6float4PKS_i").has_128bit_global_loads());
  EXPECT_FALSE(function("_Z11scalar_copyPfPKfi").has_128bit_global_loads());
  EXPECT_EQ(function("_Z11scalar_copyPfPKfi").global.loads_of_width(32), 1);
  EXPECT_GT(function("_Z14register_spillPfPKfi").local_memory_instructions(), 100);
  EXPECT_GT(function("_Z8spillingPfPKii").local_memory_instructions(), 0);
  EXPECT_EQ(function("_Z11scalar_copyPfPKfi").local_memory_instructions(), 0);
  EXPECT_GT(function("_Z14bank_conflictsPfi").shared.loads(), 0);
  EXPECT_EQ(function("_Z14bank_conflictsPfi").barriers, 1);
  EXPECT_EQ(function("_Z14atomic_hotspotPfPKfi").atomics, 1);
  EXPECT_GT(function("_Z9ffma_loopPfi").count("FFMA"), 100);
  EXPECT_FALSE(summary.uses_tensor_cores());
}

}  // namespace h200_fixtures_test
}  // namespace kopt
