// examples/transpose/tunable/transpose_tunable_kernel.cu: the size of its space, launch geometry that
// covers the matrix, and an NVRTC compile of every configuration with the shared tile it declares.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tunable_example.hpp"

namespace kopt {
namespace transpose_tunable_test {

constexpr char const* kFile = "transpose_tunable_kernel.cu";

TEST(TransposeTunable, SpaceHasTheDocumentedSize) {
  test::TunableExample example;
  ASSERT_NO_FATAL_FAILURE(test::load_tunable_example("transpose", kFile, example));
  // TILE, BLOCK_ROWS, VEC, PAD, TILES
  EXPECT_EQ(example.space.dimensions(), (std::vector<std::size_t>{3, 6, 3, 2, 3}));
  EXPECT_EQ(example.enumeration.raw_count, 324u);
  EXPECT_EQ(example.enumeration.pruned_by_values, 0u);
  EXPECT_EQ(example.enumeration.pruned_by_launch, 0u);
  EXPECT_EQ(example.enumeration.valid.size(), 240u);
  EXPECT_EQ(example.enumeration.pruned_by_constraints, 324u - 240u);
}

TEST(TransposeTunable, EveryConfigurationCoversTheMatrix) {
  test::TunableExample example;
  ASSERT_NO_FATAL_FAILURE(test::load_tunable_example("transpose", kFile, example));
  CompileRequest base;
  base.mode = CandidateMode::kernel;
  base.source = example.source;
  base.entry = "transpose";
  for (Configuration const& config : example.enumeration.valid) {
    std::string const key = example.space.config_key(config);
    ScalarEnv const k = example.space.env(config);
    auto applied = example.space.apply(config, base, example.launch);
    ASSERT_TRUE(applied) << applied.error().message;
    std::int64_t const rows_per_block = k.at("TILE") * k.at("TILES");
    for (SizeCase const& size : example.task.sizes) {
      ScalarEnv const env = example.task.env_for(size);
      auto const grid_x = applied->launch.grid[0].evaluate(env);
      auto const grid_y = applied->launch.grid[1].evaluate(env);
      auto const block_x = applied->launch.block[0].evaluate(env);
      auto const block_y = applied->launch.block[1].evaluate(env);
      ASSERT_TRUE(grid_x && grid_y && block_x && block_y) << key;
      EXPECT_EQ(*block_x * k.at("VEC"), k.at("TILE")) << key;
      EXPECT_EQ(*block_y, k.at("BLOCK_ROWS")) << key;
      EXPECT_GE(*grid_x * k.at("TILE"), env.at("cols")) << key << " " << size.name;
      EXPECT_LT((*grid_x - 1) * k.at("TILE"), env.at("cols")) << key << " " << size.name;
      EXPECT_GE(*grid_y * rows_per_block, env.at("rows")) << key << " " << size.name;
      EXPECT_LT((*grid_y - 1) * rows_per_block, env.at("rows")) << key << " " << size.name;
    }
  }
}

TEST(TransposeTunable, EveryConfigurationCompilesWithItsSharedTile) {
  test::TunableExample example;
  ASSERT_NO_FATAL_FAILURE(test::load_tunable_example("transpose", kFile, example));
  std::vector<CompileOutcome> outcomes;
  ASSERT_NO_FATAL_FAILURE(test::compile_configurations(example, example.enumeration.valid, outcomes));
  ASSERT_EQ(outcomes.size(), example.enumeration.valid.size());
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    std::string const key = example.space.config_key(example.enumeration.valid[i]);
    ScalarEnv const k = example.space.env(example.enumeration.valid[i]);
    ResourceUsage const& resources = outcomes[i].artifact.resources;
    EXPECT_EQ(resources.static_shared_bytes, 4 * k.at("TILE") * (k.at("TILE") + k.at("PAD"))) << key;
    EXPECT_EQ(resources.spill_stores_bytes, 0) << key;
  }
}

TEST(TransposeTunable, CompilesWithoutKnobsUsingItsDefaults) {
  test::expect_compiles_with_defaults("transpose", kFile);
}

}  // namespace transpose_tunable_test
}  // namespace kopt
