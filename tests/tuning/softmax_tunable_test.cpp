// examples/softmax/tunable/softmax_tunable_kernel.cu: the size of its space (its cache constraint uses
// the task's C), launch geometry that covers every row, and an NVRTC compile of every configuration.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tunable_example.hpp"

namespace kopt {
namespace softmax_tunable_test {

constexpr char const* kFile = "softmax_tunable_kernel.cu";

TEST(SoftmaxTunable, SpaceHasTheDocumentedSize) {
  test::TunableExample example;
  ASSERT_NO_FATAL_FAILURE(test::load_tunable_example("softmax", kFile, example));
  // THREADS, ROWS, VEC, ITEMS, ONLINE
  EXPECT_EQ(example.space.dimensions(), (std::vector<std::size_t>{6, 5, 3, 5, 2}));
  EXPECT_EQ(example.enumeration.raw_count, 900u);
  EXPECT_EQ(example.enumeration.pruned_by_values, 0u);
  EXPECT_EQ(example.enumeration.pruned_by_launch, 0u);
  EXPECT_EQ(example.enumeration.valid.size(), 162u);
  EXPECT_EQ(example.enumeration.pruned_by_constraints, 900u - 162u);
  for (Configuration const& config : example.enumeration.valid) {
    ScalarEnv const k = example.space.env(config);
    // A register cache, when there is one, holds the task's widest row (C = 4096).
    if (k.at("ITEMS") > 0) {
      EXPECT_GE(k.at("THREADS") * k.at("VEC") * k.at("ITEMS"), 4096) << example.space.config_key(config);
    }
  }
}

TEST(SoftmaxTunable, EveryConfigurationCoversEveryRow) {
  test::TunableExample example;
  ASSERT_NO_FATAL_FAILURE(test::load_tunable_example("softmax", kFile, example));
  CompileRequest base;
  base.mode = CandidateMode::kernel;
  base.source = example.source;
  base.entry = "softmax";
  for (Configuration const& config : example.enumeration.valid) {
    std::string const key = example.space.config_key(config);
    ScalarEnv const k = example.space.env(config);
    auto applied = example.space.apply(config, base, example.launch);
    ASSERT_TRUE(applied) << applied.error().message;
    for (SizeCase const& size : example.task.sizes) {
      ScalarEnv const env = example.task.env_for(size);
      auto const grid = applied->launch.grid[0].evaluate(env);
      auto const block = applied->launch.block[0].evaluate(env);
      ASSERT_TRUE(grid && block) << key;
      EXPECT_EQ(*block, k.at("THREADS") * k.at("ROWS")) << key;
      EXPECT_GE(*grid * k.at("ROWS"), env.at("N")) << key << " " << size.name;
      EXPECT_LT((*grid - 1) * k.at("ROWS"), env.at("N")) << key << " " << size.name;
    }
  }
}

TEST(SoftmaxTunable, EveryConfigurationCompilesWithLittleOrNoSpilling) {
  test::TunableExample example;
  ASSERT_NO_FATAL_FAILURE(test::load_tunable_example("softmax", kFile, example));
  std::vector<CompileOutcome> outcomes;
  ASSERT_NO_FATAL_FAILURE(test::compile_configurations(example, example.enumeration.valid, outcomes));
  ASSERT_EQ(outcomes.size(), example.enumeration.valid.size());
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    // With CUDA 13.0 two configurations with 512 and 1024 threads per block (128 and 64 registers a
    // thread) spill 16 and 8 bytes; the rest none.
    EXPECT_LE(outcomes[i].artifact.resources.spill_stores_bytes, 32)
        << example.space.config_key(example.enumeration.valid[i]);
  }
}

TEST(SoftmaxTunable, CompilesWithoutKnobsUsingItsDefaults) {
  test::expect_compiles_with_defaults("softmax", kFile);
}

}  // namespace softmax_tunable_test
}  // namespace kopt
