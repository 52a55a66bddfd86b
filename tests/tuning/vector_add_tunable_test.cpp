// examples/vector_add/tunable/vector_add_tunable_kernel.cu: its space, and every configuration
// compiles with NVRTC into a kernel whose launch geometry covers every size case.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "kopt/compile.hpp"
#include "kopt/tuning.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace vector_add_tunable_test {

std::filesystem::path const kTaskDir = std::filesystem::path(KOPT_SOURCE_DIR) / "examples" / "vector_add";
std::filesystem::path const kCandidate = kTaskDir / "tunable" / "vector_add_tunable_kernel.cu";

std::string read(std::filesystem::path const& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(VectorAddTunable, EveryConfigurationCompilesAndCoversEverySize) {
  auto task = load_task(kTaskDir);
  ASSERT_TRUE(task) << task.error().message;
  ASSERT_TRUE(task->launch.has_value());
  std::string const source = read(kCandidate);
  ASSERT_FALSE(source.empty());
  ASSERT_EQ(detect_mode(source, task->signature.function), CandidateMode::kernel);

  auto space = TuningSpace::parse(source, kCandidate.filename().string());
  ASSERT_TRUE(space) << space.error().message;
  EXPECT_EQ(space->dimensions(), (std::vector<std::size_t>{5, 3, 4}));
  auto launch = apply_launch_annotation(source, *task->launch);
  ASSERT_TRUE(launch) << launch.error().message;
  auto enumeration = space->enumerate(tuning_rules_for(*task, *launch));
  ASSERT_TRUE(enumeration) << enumeration.error().message;
  EXPECT_EQ(enumeration->raw_count, 60u);
  EXPECT_EQ(enumeration->pruned_by_constraints, 5u);  // VEC=4, ITEMS=8 for each BLOCK
  EXPECT_EQ(enumeration->pruned_by_launch, 0u);
  ASSERT_EQ(enumeration->valid.size(), 55u);

  kopt::test::TempDir cache;
  CompileOptions options;
  options.cache_dir = cache.path();
  options.jobs = 2;
  auto compiler = Compiler::create(options);
  ASSERT_TRUE(compiler) << compiler.error().message;

  CompileRequest base;
  base.mode = CandidateMode::kernel;
  base.source = source;
  base.origin = kCandidate;
  base.entry = task->signature.function;
  std::vector<CompileRequest> requests;
  for (Configuration const& config : enumeration->valid) {
    auto applied = space->apply(config, base, *launch);
    ASSERT_TRUE(applied) << applied.error().message;
    ScalarEnv const knobs = space->env(config);
    std::int64_t const tile = knobs.at("BLOCK") * knobs.at("VEC") * knobs.at("ITEMS");
    for (SizeCase const& size : task->sizes) {
      ScalarEnv const env = task->env_for(size);
      auto const grid = applied->launch.grid[0].evaluate(env);
      auto const block = applied->launch.block[0].evaluate(env);
      ASSERT_TRUE(grid && block) << space->config_key(config);
      EXPECT_EQ(*block, knobs.at("BLOCK"));
      // The grid covers n, and not one block more than needed.
      EXPECT_GE(*grid * tile, env.at("n")) << space->config_key(config) << " " << size.name;
      EXPECT_LT((*grid - 1) * tile, env.at("n")) << space->config_key(config) << " " << size.name;
    }
    requests.push_back(std::move(applied->request));
  }
  auto const outcomes = compiler->compile_all(requests);
  ASSERT_EQ(outcomes.size(), requests.size());
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    std::string const key = space->config_key(enumeration->valid[i]);
    ASSERT_TRUE(outcomes[i]) << key << ": " << outcomes[i].error().message;
    EXPECT_TRUE(outcomes[i]->ok) << key << ": " << outcomes[i]->diagnostics;
    EXPECT_EQ(outcomes[i]->artifact.symbol, "vector_add") << key;
    EXPECT_EQ(outcomes[i]->artifact.resources.spill_stores_bytes, 0) << key;
  }
}

TEST(VectorAddTunable, CompilesWithoutKnobsUsingItsDefaults) {
  auto task = load_task(kTaskDir);
  ASSERT_TRUE(task) << task.error().message;
  kopt::test::TempDir cache;
  CompileOptions options;
  options.cache_dir = cache.path();
  auto compiler = Compiler::create(options);
  ASSERT_TRUE(compiler) << compiler.error().message;
  CompileRequest request;
  request.mode = CandidateMode::kernel;
  request.source = read(kCandidate);
  request.origin = kCandidate;
  request.entry = task->signature.function;
  auto outcome = compiler->compile(request);
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_TRUE(outcome->ok) << outcome->diagnostics;
}

}  // namespace vector_add_tunable_test
}  // namespace kopt
