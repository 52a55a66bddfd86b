// examples/sgemm/tunable/sgemm_tunable_kernel.cu: the size of its space, launch geometry that covers
// every size case, and an NVRTC compile of a sample of its configurations whose static shared memory
// is what the space's shared-memory constraint assumes.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tunable_example.hpp"

namespace kopt {
namespace sgemm_tunable_test {

constexpr char const* kFile = "sgemm_tunable_kernel.cu";

TEST(SgemmTunable, SpaceHasTheDocumentedSize) {
  test::TunableExample example;
  ASSERT_NO_FATAL_FAILURE(test::load_tunable_example("sgemm", kFile, example));
  // BM, BN, BK, TM, TN, VEC, PAD, PREFETCH
  EXPECT_EQ(example.space.dimensions(), (std::vector<std::size_t>{4, 4, 3, 2, 2, 2, 2, 2}));
  EXPECT_EQ(example.enumeration.raw_count, 1536u);
  EXPECT_EQ(example.enumeration.pruned_by_values, 0u);
  EXPECT_EQ(example.enumeration.pruned_by_launch, 0u);  // the thread-count constraint already holds it
  EXPECT_EQ(example.enumeration.pruned_by_constraints, 872u);
  EXPECT_EQ(example.enumeration.valid.size(),
            664u);  // bench/kernel_tuner/compare.py --dry-run counts the same
}

TEST(SgemmTunable, EveryConfigurationLaunchesOneThreadPerMicroTileAndCoversC) {
  test::TunableExample example;
  ASSERT_NO_FATAL_FAILURE(test::load_tunable_example("sgemm", kFile, example));
  CompileRequest base;
  base.mode = CandidateMode::kernel;
  base.source = example.source;
  base.entry = "sgemm";
  for (Configuration const& config : example.enumeration.valid) {
    std::string const key = example.space.config_key(config);
    ScalarEnv const k = example.space.env(config);
    std::int64_t const threads = (k.at("BM") / k.at("TM")) * (k.at("BN") / k.at("TN"));
    EXPECT_GE(threads, 64) << key;
    EXPECT_LE(threads, 1024) << key;
    EXPECT_LE(4 * (k.at("PREFETCH") + 1) * k.at("BK") * (k.at("BM") + k.at("PAD") + k.at("BN")), 49152)
        << key;
    auto applied = example.space.apply(config, base, example.launch);
    ASSERT_TRUE(applied) << applied.error().message;
    for (SizeCase const& size : example.task.sizes) {
      ScalarEnv const env = example.task.env_for(size);
      auto const grid_x = applied->launch.grid[0].evaluate(env);
      auto const grid_y = applied->launch.grid[1].evaluate(env);
      auto const block = applied->launch.block[0].evaluate(env);
      ASSERT_TRUE(grid_x && grid_y && block) << key;
      EXPECT_EQ(*block, threads) << key;
      EXPECT_GE(*grid_x * k.at("BN"), env.at("N")) << key << " " << size.name;
      EXPECT_LT((*grid_x - 1) * k.at("BN"), env.at("N")) << key << " " << size.name;
      EXPECT_GE(*grid_y * k.at("BM"), env.at("M")) << key << " " << size.name;
      EXPECT_LT((*grid_y - 1) * k.at("BM"), env.at("M")) << key << " " << size.name;
    }
  }
}

TEST(SgemmTunable, SampledConfigurationsCompileWithTheSharedMemoryTheConstraintCounts) {
  test::TunableExample example;
  ASSERT_NO_FATAL_FAILURE(test::load_tunable_example("sgemm", kFile, example));
  // Every 7th configuration (95 of 664): the list is in lexicographic order with PREFETCH, PAD and VEC
  // varying fastest, so an even step would never reach some of their combinations.
  std::vector<Configuration> const sample = test::every_nth(example.enumeration.valid, 7);
  ASSERT_EQ(sample.size(), 95u);
  std::vector<CompileOutcome> outcomes;
  ASSERT_NO_FATAL_FAILURE(test::compile_configurations(example, sample, outcomes));
  ASSERT_EQ(outcomes.size(), sample.size());
  for (std::size_t i = 0; i < sample.size(); ++i) {
    std::string const key = example.space.config_key(sample[i]);
    ScalarEnv const k = example.space.env(sample[i]);
    ResourceUsage const& resources = outcomes[i].artifact.resources;
    EXPECT_EQ(resources.static_shared_bytes,
              4 * (k.at("PREFETCH") + 1) * k.at("BK") * (k.at("BM") + k.at("PAD") + k.at("BN")))
        << key;
    // The register constraints keep spills small: with CUDA 13.0, 24 of the 664 configurations spill,
    // at most 68 bytes each (slow, not wrong; the search measures that).
    EXPECT_LE(resources.spill_stores_bytes, 128) << key << ": " << resources.registers << " registers";
  }
}

TEST(SgemmTunable, CompilesWithoutKnobsUsingItsDefaults) {
  test::expect_compiles_with_defaults("sgemm", kFile);
}

}  // namespace sgemm_tunable_test
}  // namespace kopt
