#include <gtest/gtest.h>

#include <string>

#include "fixture_files.hpp"
#include "kopt/profile.hpp"

namespace kopt {
namespace ncu_csv_test {

using testing::read_fixture;

std::string replace_all(std::string text, std::string const& from, std::string const& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

TEST(ParseNcuRawCsv, RawPageWithUnitsRow) {
  auto const rows = parse_ncu_raw_csv(read_fixture("synthetic_ncu_raw_log_file.csv"));
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 1u);
  NcuKernelRow const& row = rows->front();
  EXPECT_EQ(row.kernel_name, "copy_float4");
  EXPECT_EQ(row.id, 0);
  EXPECT_EQ(row.block, (LaunchDim{256, 1, 1}));
  EXPECT_EQ(row.grid, (LaunchDim{131072, 1, 1}));
  EXPECT_EQ(row.grid->count(), 131072);

  EXPECT_EQ(row.metrics.size(), 8u);
  EXPECT_EQ(row.metric("dram__bytes_read.sum"), 268449792.0);  // "268,449,792"
  EXPECT_EQ(row.metric("gpu__time_duration.sum"), 123616.0);
  EXPECT_EQ(row.metric("sm__throughput.avg.pct_of_peak_sustained_elapsed"), 16.31);
  EXPECT_EQ(row.metric("launch__grid_size"), 131072.0);
  EXPECT_EQ(row.units.at("dram__bytes_read.sum"), "byte");
  EXPECT_EQ(row.units.at("gpu__time_duration.sum"), "ns");
  EXPECT_EQ(row.units.at("sm__throughput.avg.pct_of_peak_sustained_elapsed"), "%");
  EXPECT_EQ(row.units.at("launch__registers_per_thread"), "register/thread");
  EXPECT_EQ(row.units.count("launch__grid_size"), 0u);  // no unit printed

  // n/a: absent from the numbers, kept as text.
  EXPECT_FALSE(
      row.metric("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active").has_value());
  EXPECT_EQ(row.text("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"), "n/a");
  EXPECT_EQ(row.text("device__attribute_display_name"), "NVIDIA H200");
  // Launch columns are text, never metrics.
  EXPECT_EQ(row.text("Process ID"), "48213");
  EXPECT_EQ(row.text("CC"), "9.0");
  EXPECT_EQ(row.text("Kernel Name"), "copy_float4");
  EXPECT_FALSE(row.metric("Process ID").has_value());
  EXPECT_FALSE(row.metric("CC").has_value());
  EXPECT_FALSE(row.text("no_such_metric").has_value());
}

TEST(ParseNcuRawCsv, ApplicationOutputAndProfilerLinesAmongRowsAreSkipped) {
  auto const rows = parse_ncu_raw_csv(read_fixture("synthetic_ncu_raw_with_app_output.csv"));
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].id, 2);
  EXPECT_EQ((*rows)[1].id, 3);
  EXPECT_EQ((*rows)[0].grid, (LaunchDim{1024, 1, 1}));
  EXPECT_EQ((*rows)[1].grid, (LaunchDim{4096, 1, 1}));
  EXPECT_EQ((*rows)[0].metric("gpu__time_duration.sum"), 41312.0);
  EXPECT_EQ((*rows)[1].metric("gpu__time_duration.sum"), 152064.5);
  EXPECT_EQ((*rows)[0].metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 1290240.0);
  EXPECT_EQ((*rows)[1].metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
            0.0);  // 0 is a value
  EXPECT_EQ((*rows)[0].metric("sm__warps_active.avg.pct_of_peak_sustained_active"), 61.40);
  // Empty: neither a number nor text.
  EXPECT_FALSE((*rows)[1].metric("sm__warps_active.avg.pct_of_peak_sustained_active").has_value());
  EXPECT_FALSE((*rows)[1].text("sm__warps_active.avg.pct_of_peak_sustained_active").has_value());
  EXPECT_EQ((*rows)[1].units.at("sm__warps_active.avg.pct_of_peak_sustained_active"), "%");
}

TEST(ParseNcuRawCsv, CrlfAndBomGiveTheSameRows) {
  std::string const plain = read_fixture("synthetic_ncu_raw_with_app_output.csv");
  auto const expected = parse_ncu_raw_csv(plain);
  auto const windows = parse_ncu_raw_csv("\xEF\xBB\xBF" + replace_all(plain, "\n", "\r\n"));
  ASSERT_TRUE(expected.ok());
  ASSERT_TRUE(windows.ok()) << windows.error().message;
  ASSERT_EQ(windows->size(), expected->size());
  for (std::size_t i = 0; i < expected->size(); ++i) {
    EXPECT_EQ((*windows)[i].kernel_name, (*expected)[i].kernel_name);
    EXPECT_EQ((*windows)[i].metrics, (*expected)[i].metrics);
    EXPECT_EQ((*windows)[i].units, (*expected)[i].units);
    EXPECT_EQ((*windows)[i].text_fields, (*expected)[i].text_fields);
  }
  // A BOM right before the header row (no other lines) still finds the header.
  auto const bom_first =
      parse_ncu_raw_csv("\xEF\xBB\xBF\"ID\",\"Kernel Name\",\"m\"\r\n\"0\",\"k\",\"1\"\r\n");
  ASSERT_TRUE(bom_first.ok()) << bom_first.error().message;
  EXPECT_EQ(bom_first->front().metric("m"), 1.0);
}

TEST(ParseNcuRawCsv, QuotedKernelNamesWithCommasStayWhole) {
  std::string const text =
      "\"ID\",\"Kernel Name\",\"Block Size\",\"gpu__time_duration.sum\"\n"
      "\"\",\"\",\"\",\"ns\"\n"
      "\"0\",\"void gemm<float, 128>(float const*, int)\",\"(128, 2, 1)\",\"1,500\"\n";
  auto const rows = parse_ncu_raw_csv(text);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ(rows->front().kernel_name, "void gemm<float, 128>(float const*, int)");
  EXPECT_EQ(rows->front().block, (LaunchDim{128, 2, 1}));
  EXPECT_FALSE(rows->front().grid.has_value());  // no Grid Size column
  EXPECT_EQ(rows->front().metric("gpu__time_duration.sum"), 1500.0);
}

TEST(ParseNcuRawCsv, RowsWithAnotherFieldCountAreNotKernelRows) {
  std::string const text =
      "\"ID\",\"Kernel Name\",\"a\",\"b\"\n"
      "\"\",\"\",\"byte\",\"%\"\n"
      "\"status\",\"ok\"\n"  // application output that happens to look like CSV
      "\"7\",\"k\",\"1\",\"2\"\n";
  auto const rows = parse_ncu_raw_csv(text);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ(rows->front().id, 7);
  EXPECT_EQ(rows->front().metric("b"), 2.0);
}

TEST(ParseNcuRawCsv, WithoutUnitsRowAndWithNonIntegerId) {
  auto const rows = parse_ncu_raw_csv("\"ID\",\"Kernel Name\",\"m\"\n\"x\",\"k\",\"3\"\n");
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_FALSE(rows->front().id.has_value());
  EXPECT_EQ(rows->front().text("ID"), "x");
  EXPECT_TRUE(rows->front().units.empty());
  EXPECT_EQ(rows->front().metric("m"), 3.0);
}

TEST(ParseNcuRawCsv, ConcatenatedOutputsKeepTheirOwnColumns) {
  std::string const text =
      "\"ID\",\"Kernel Name\",\"a\"\n"
      "\"\",\"\",\"byte\"\n"
      "\"0\",\"first\",\"10\"\n"
      "==PROF== Disconnected from process 1\n"
      "\"ID\",\"Kernel Name\",\"b\",\"c\"\n"
      "\"\",\"\",\"%\",\"\"\n"
      "\"0\",\"second\",\"20\",\"30\"\n";
  auto const rows = parse_ncu_raw_csv(text);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].metrics, (std::map<std::string, double, std::less<>>{{"a", 10.0}}));
  EXPECT_EQ((*rows)[1].metrics, (std::map<std::string, double, std::less<>>{{"b", 20.0}, {"c", 30.0}}));
  EXPECT_EQ((*rows)[1].units.at("b"), "%");
}

TEST(ParseNcuRawCsv, LongFormatGroupsMetricRowsByLaunch) {
  auto const rows = parse_ncu_raw_csv(read_fixture("synthetic_ncu_long_two_kernels.csv"));
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 2u);
  NcuKernelRow const& copy = (*rows)[0];
  NcuKernelRow const& ffma = (*rows)[1];
  EXPECT_EQ(copy.kernel_name, "stride33_copy");
  EXPECT_EQ(copy.id, 0);
  EXPECT_EQ(copy.grid, (LaunchDim{4096, 1, 1}));
  EXPECT_EQ(copy.metrics.size(), 3u);  // n/a and the rule row add none
  EXPECT_EQ(copy.metric("dram__bytes_read.sum"), 117440512.0);
  EXPECT_EQ(copy.metric("gpu__time_duration.sum"), 3214336.0);
  EXPECT_EQ(copy.metric("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"), 4.0);
  EXPECT_EQ(copy.units.at("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"), "byte/sector");
  EXPECT_EQ(copy.text("derived__memory_l2_theoretical_sectors_global_excessive"), "n/a");
  EXPECT_FALSE(copy.text("Section Name").has_value());  // per metric row, not per launch
  EXPECT_EQ(copy.text("Process ID"), "51002");

  EXPECT_EQ(ffma.kernel_name, "ffma_loop");
  EXPECT_EQ(ffma.id, 1);
  EXPECT_EQ(ffma.block, (LaunchDim{128, 1, 1}));
  EXPECT_EQ(ffma.metric("sm__throughput.avg.pct_of_peak_sustained_elapsed"), 89.03);
  EXPECT_EQ(ffma.units.at("sm__throughput.avg.pct_of_peak_sustained_elapsed"), "%");
  EXPECT_EQ(ffma.metric("dram__bytes_read.sum"), 8192.0);
}

TEST(ParseNcuRawCsv, LongFormatWithoutIdGroupsByKernelNameAndKeepsFirstValue) {
  std::string const text =
      "\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"a\",\"Duration\",\"ns\",\"100\"\n"
      "\"b\",\"Duration\",\"ns\",\"200\"\n"
      "\"a\",\"Registers Per Thread\",\"register/thread\",\"32\"\n"
      "\"a\",\"Duration\",\"usecond\",\"0.1\"\n";
  auto const rows = parse_ncu_raw_csv(text);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].kernel_name, "a");
  EXPECT_EQ((*rows)[0].metric("Duration"), 100.0);
  EXPECT_EQ((*rows)[0].units.at("Duration"), "ns");
  EXPECT_EQ((*rows)[0].metric("Registers Per Thread"), 32.0);
  EXPECT_EQ((*rows)[1].metric("Duration"), 200.0);
}

TEST(ParseNcuRawCsv, EmptyInputIsAnError) {
  for (std::string const text : {"", "\n\r\n   \n", "\xEF\xBB\xBF"}) {
    auto const rows = parse_ncu_raw_csv(text, "ncu.log");
    ASSERT_FALSE(rows.ok());
    EXPECT_EQ(rows.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(rows.error().message.find("ncu.log: empty"), std::string::npos) << rows.error().message;
  }
}

TEST(ParseNcuRawCsv, NoHeaderNamesWhatWasExpectedAndQuotesNcu) {
  std::string const text =
      "==PROF== Connected to process 9 (/tmp/h)\n"
      "==WARNING== No kernels were profiled.\n"
      "\"hello\",\"world\"\n"
      "result 3\n";
  auto const rows = parse_ncu_raw_csv(text, "run/ncu.log");
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.error().code, ErrorCode::invalid_argument);
  std::string const& message = rows.error().message;
  EXPECT_NE(message.find("run/ncu.log: no header row with metric names"), std::string::npos) << message;
  EXPECT_NE(message.find("\"Kernel Name\""), std::string::npos) << message;
  EXPECT_NE(message.find("ncu said: ==WARNING== No kernels were profiled."), std::string::npos) << message;

  auto const with_error =
      parse_ncu_raw_csv("==WARNING== clocks\n==ERROR== LibraryNotLoaded: libcuda\n", "ncu output");
  ASSERT_FALSE(with_error.ok());
  EXPECT_NE(with_error.error().message.find("ncu said: ==ERROR== LibraryNotLoaded"), std::string::npos)
      << with_error.error().message;
}

TEST(ParseNcuRawCsv, HeaderWithoutKernelRowsIsAnError) {
  std::string const text =
      "==PROF== Connected\n"
      "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n"
      "\"\",\"\",\"ns\"\n"
      "\"0\",\"k\"\n";
  auto const rows = parse_ncu_raw_csv(text, "x.csv");
  ASSERT_FALSE(rows.ok());
  std::string const& message = rows.error().message;
  EXPECT_NE(message.find("x.csv: header row at line 2 but no kernel rows"), std::string::npos) << message;
  EXPECT_NE(message.find("1 row(s) had a different number of fields"), std::string::npos) << message;
}

}  // namespace ncu_csv_test
}  // namespace kopt
