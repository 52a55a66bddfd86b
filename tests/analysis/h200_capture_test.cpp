// The classifier and the tools on the real H200 capture of bench/analysis_capture/analysis_kernels.cu
// (tests/profile/fixtures/h200_ncu_full_raw.csv, SASS in h200_cuobjdump_sass.txt, ptxas output in
// nvcc13_ptxas_analysis_kernels.txt): each purpose-built kernel must be flagged by its tool, and by no
// unrelated tool at high severity.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "kopt/analysis.hpp"
#include "kopt/profile.hpp"
#include "kopt/profile_candidate.hpp"

namespace kopt {
namespace h200_capture_test {

std::string read_fixture(std::string const& name) {
  std::ifstream in(std::filesystem::path(KOPT_SOURCE_DIR) / "tests/profile/fixtures" / name,
                   std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The mangled SASS function name of each kernel (all are C++ functions in the capture).
std::map<std::string, std::string> const kMangled = {{"streaming_copy", "_Z14streaming_copyP6float4PKS_i"},
                                                     {"scalar_copy", "_Z11scalar_copyPfPKfi"},
                                                     {"strided_copy", "_Z12strided_copyPfPKfi"},
                                                     {"bank_conflicts", "_Z14bank_conflictsPfi"},
                                                     {"divergent", "_Z9divergentPfPKfii"},
                                                     {"spilling", "_Z8spillingPfPKii"},
                                                     {"register_spill", "_Z14register_spillPfPKfi"},
                                                     {"ffma_loop", "_Z9ffma_loopPfi"},
                                                     {"tiny_grid", "_Z9tiny_gridPfPKfi"},
                                                     {"atomic_hotspot", "_Z14atomic_hotspotPfPKfi"}};

// ptxas -v of the same source (nvcc 13.0): registers, stack and spills per kernel.
struct Ptxas {
  int registers;
  int stack;
  int spill_stores;
  int spill_loads;
};
std::map<std::string, Ptxas> const kPtxas = {
    {"streaming_copy", {18, 0, 0, 0}},       {"scalar_copy", {12, 0, 0, 0}}, {"strided_copy", {18, 0, 0, 0}},
    {"bank_conflicts", {24, 0, 0, 0}},       {"divergent", {10, 0, 0, 0}},   {"spilling", {56, 1024, 0, 0}},
    {"register_spill", {32, 232, 524, 376}}, {"ffma_loop", {16, 0, 0, 0}},   {"tiny_grid", {14, 0, 0, 0}},
    {"atomic_hotspot", {8, 0, 0, 0}}};

struct Analysed {
  Classification classification;
  std::vector<Finding> findings;
};

class H200Capture : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto rows = parse_ncu_raw_csv(read_fixture("h200_ncu_full_raw.csv"), "h200_ncu_full_raw.csv");
    ASSERT_TRUE(rows) << rows.error().message;
    SassSummary const sass = parse_sass(read_fixture("h200_cuobjdump_sass.txt"));
    results_ = new std::map<std::string, Analysed>();
    for (auto const& row : *rows) {
      std::string const name = row.kernel_name.substr(0, row.kernel_name.find('('));
      StaticFacts facts;
      if (auto it = kPtxas.find(name); it != kPtxas.end()) {
        facts.registers_per_thread = it->second.registers;
        facts.stack_bytes = it->second.stack;
        facts.spill_store_bytes = it->second.spill_stores;
        facts.spill_load_bytes = it->second.spill_loads;
      }
      if (auto it = kMangled.find(name); it != kMangled.end()) {
        if (SassFunction const* f = sass.find(it->second)) add_sass_facts(*f, facts);
      }
      WorkFacts work;
      work.launches_per_call = 1;
      work.sm_count = 132;
      if (auto ns = row.metric("gpu__time_duration.sum"))
        work.kernel_us_per_call = work.median_us = *ns / 1000.0;
      if (row.grid) work.grid_blocks = row.grid->count();
      if (row.block) work.block_threads = static_cast<int>(row.block->count());
      Analysed a;
      a.classification = classify(row.metrics, work);
      a.findings = analyze(a.classification, row.metrics, facts, work);
      results_->emplace(name, std::move(a));
    }
  }
  static void TearDownTestSuite() {
    delete results_;
    results_ = nullptr;
  }

  static Analysed const& of(std::string const& kernel) {
    auto it = results_->find(kernel);
    if (it == results_->end()) throw std::logic_error("no capture of " + kernel);
    return it->second;
  }
  static std::string describe(std::string const& kernel) {
    Analysed const& a = of(kernel);
    std::string text = kernel + ": " + std::string(to_string(a.classification.bottleneck)) + " — " +
                       a.classification.summary + "\n";
    for (auto const& f : a.findings) {
      text += "  [" + std::string(to_string(f.severity)) + "] " + f.tool + ": " + f.explanation + "\n";
    }
    return text;
  }
  static std::optional<Severity> severity_of(std::string const& kernel, std::string_view tool) {
    for (auto const& f : of(kernel).findings) {
      if (f.tool == tool) return f.severity;
    }
    return std::nullopt;
  }
  // The tool flags the kernel at medium severity or more, and no other tool says high.
  static void expect_flagged_only_by(std::string const& kernel, std::set<std::string> const& tools) {
    bool flagged = false;
    for (auto const& f : of(kernel).findings) {
      if (tools.count(f.tool) > 0 && f.severity >= Severity::medium) flagged = true;
      if (tools.count(f.tool) == 0) {
        EXPECT_LT(f.severity, Severity::high) << "unrelated tool " << f.tool << " says high\n"
                                              << describe(kernel);
      }
    }
    EXPECT_TRUE(flagged) << describe(kernel);
  }

  static std::map<std::string, Analysed>* results_;
};
std::map<std::string, Analysed>* H200Capture::results_ = nullptr;

TEST_F(H200Capture, EveryKernelOfTheCaptureWasAnalysed) {
  EXPECT_EQ(results_->size(), kMangled.size());
}

TEST_F(H200Capture, StreamingCopyIsMemoryBoundOnDram) {
  EXPECT_EQ(of("streaming_copy").classification.bottleneck, BottleneckClass::memory_bound)
      << describe("streaming_copy");
  EXPECT_EQ(of("streaming_copy").classification.memory_level, MemoryLevel::dram)
      << describe("streaming_copy");
  for (auto const& f : of("streaming_copy").findings) {
    EXPECT_LT(f.severity, Severity::high) << describe("streaming_copy");
  }
}

TEST_F(H200Capture, FfmaLoopIsComputeBound) {
  EXPECT_EQ(of("ffma_loop").classification.bottleneck, BottleneckClass::compute_bound)
      << describe("ffma_loop");
}

TEST_F(H200Capture, TinyGridIsASmallGrid) {
  EXPECT_EQ(of("tiny_grid").classification.bottleneck, BottleneckClass::small_grid) << describe("tiny_grid");
  expect_flagged_only_by("tiny_grid", {"tail_effect"});
}

TEST_F(H200Capture, StridedCopyIsUncoalesced) {
  expect_flagged_only_by("strided_copy", {"uncoalesced_global_access"});
}

TEST_F(H200Capture, BankConflictsAreFound) {
  expect_flagged_only_by("bank_conflicts", {"shared_bank_conflicts"});
}

TEST_F(H200Capture, RegisterSpillIsFound) {
  expect_flagged_only_by("register_spill", {"register_spills"});
}

TEST_F(H200Capture, ScalarCopyIsUnvectorized) {
  EXPECT_EQ(of("scalar_copy").classification.bottleneck, BottleneckClass::memory_bound)
      << describe("scalar_copy");
  EXPECT_TRUE(severity_of("scalar_copy", "unvectorized_access").has_value()) << describe("scalar_copy");
  EXPECT_FALSE(severity_of("streaming_copy", "unvectorized_access").has_value())
      << describe("streaming_copy");
}

TEST_F(H200Capture, AtomicHotspotShowsContention) {
  expect_flagged_only_by("atomic_hotspot", {"sync_contention"});
}

TEST_F(H200Capture, DivergentKernelIsFlagged) {
  expect_flagged_only_by("divergent", {"warp_divergence"});
}

// ncu fails a whole run on a metric it cannot collect, so every metric kopt asks for (stage 1 and
// every tool's stage 2) must be one the H200's ncu collected in the full capture.
TEST(H200CaptureMetrics, EveryMetricKoptAsksForExistsOnTheH200) {
  auto rows = parse_ncu_raw_csv(read_fixture("h200_ncu_full_raw.csv"), "h200_ncu_full_raw.csv");
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_FALSE(rows->empty());
  NcuKernelRow const& row = rows->front();
  auto known = [&](std::string const& name) {
    return row.metrics.count(name) > 0 || row.units.count(name) > 0 || row.text_fields.count(name) > 0;
  };
  for (std::string const& name : stage1_metrics()) EXPECT_TRUE(known(name)) << "stage 1: " << name;
  for (AnalysisTool const& tool : analysis_tools()) {
    for (std::string_view name : tool.metrics)
      EXPECT_TRUE(known(std::string(name))) << tool.name << ": " << name;
  }
}

}  // namespace h200_capture_test
}  // namespace kopt
