// The live analysis probes (tests/gpu/analysis_probes/, profiled by the GPU test analysis_probes_test) are
// kernel-mode candidates: each must compile here with NVRTC, and the two that exist to exercise the
// register_spills tool must show ptxas's evidence for it (spills, a stack frame) without a GPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "compile_test_support.hpp"
#include "kopt/compile.hpp"

namespace kopt {
namespace analysis_probes_compile_test {

using testing::kernel_request;
using testing::make_compiler;
using testing::TempDir;

std::filesystem::path const kProbes = std::filesystem::path(KOPT_SOURCE_DIR) / "tests/gpu/analysis_probes";

std::string read_probe(std::string const& name) {
  std::ifstream in(kProbes / name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(AnalysisProbes, EveryProbeCompilesWithNvrtc) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  int compiled = 0;
  for (auto const& entry : std::filesystem::directory_iterator(kProbes)) {
    if (entry.path().extension() != ".cu") continue;
    SCOPED_TRACE(entry.path().filename().string());
    auto outcome = compiler.compile(kernel_request(read_probe(entry.path().filename().string()), "probe",
                                                   entry.path().filename().string()));
    ASSERT_TRUE(outcome.ok()) << outcome.error().message;
    EXPECT_TRUE(outcome->ok) << outcome->diagnostics;
    ++compiled;
  }
  EXPECT_GE(compiled, 10);
}

TEST(AnalysisProbes, SpillingProbesShowPtxasEvidence) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto spill = compiler.compile(kernel_request(read_probe("register_spill.cu"), "probe"));
  ASSERT_TRUE(spill.ok() && spill->ok);
  EXPECT_GT(spill->artifact.resources.spill_stores_bytes, 0) << "64 accumulators in 32 registers spill";
  auto local = compiler.compile(kernel_request(read_probe("local_array.cu"), "probe"));
  ASSERT_TRUE(local.ok() && local->ok);
  EXPECT_GE(local->artifact.resources.stack_bytes, 1024) << "a 1 KiB dynamically indexed array";
  auto copy = compiler.compile(kernel_request(read_probe("streaming_copy.cu"), "probe"));
  ASSERT_TRUE(copy.ok() && copy->ok);
  EXPECT_EQ(copy->artifact.resources.spill_stores_bytes, 0);
  EXPECT_EQ(copy->artifact.resources.stack_bytes, 0);
}

}  // namespace analysis_probes_compile_test
}  // namespace kopt
