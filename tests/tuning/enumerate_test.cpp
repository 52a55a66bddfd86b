// Pruning: constraints (with and without size scalars), the precision rule, launch geometry.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "kopt/tuning.hpp"

namespace kopt {
namespace enumerate_test {

TuningSpace space_of(std::string const& source) {
  auto space = TuningSpace::parse(source, "cand.cu");
  if (!space) throw std::runtime_error(space.error().message);
  return std::move(*space);
}

Expr expr(std::string const& text) {
  auto parsed = Expr::parse(text);
  if (!parsed) throw std::runtime_error(parsed.error().message);
  return std::move(*parsed);
}

TEST(TuningEnumerate, ConstraintsPruneBeforeAnythingIsCompiled) {
  TuningSpace const space = space_of(
      "// kopt:knob BLOCK = [64, 128, 256, 512]\n// kopt:knob UNROLL = range(1, 8)\n"
      "// kopt:constraint BLOCK * UNROLL <= 2048\n// kopt:constraint UNROLL % 2 == 0 || UNROLL == 1\n");
  auto result = space.enumerate(TuningRules{});
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->raw_count, 32u);
  // UNROLL in {1, 2, 4, 6, 8} (5 of 8 values) and BLOCK * UNROLL <= 2048 removes 512 x {6, 8}: 4*5 - 2.
  EXPECT_EQ(result->valid.size(), 18u);
  EXPECT_EQ(result->pruned_by_constraints, 14u);
  EXPECT_EQ(result->pruned_by_values, 0u);
  for (Configuration const& config : result->valid) {
    ScalarEnv const env = space.env(config);
    EXPECT_LE(env.at("BLOCK") * env.at("UNROLL"), 2048);
    EXPECT_FALSE(space.why_invalid(config, TuningRules{}));
  }
  auto const why = space.why_invalid(Configuration{{3, 7}}, TuningRules{});
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "constraint 'BLOCK * UNROLL <= 2048' (line 3) does not hold");
  EXPECT_TRUE(std::is_sorted(result->valid.begin(), result->valid.end()));
}

TEST(TuningEnumerate, ConstraintsOverSizesMustHoldForEverySize) {
  TuningSpace const space =
      space_of("// kopt:knob TILE = [16, 32, 64, 128]\n// kopt:constraint N % TILE == 0\n");
  TuningRules rules;
  rules.sizes = {ScalarEnv{{"N", 256}}, ScalarEnv{{"N", 96}}};
  auto result = space.enumerate(rules);
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->valid.size(), 2u);  // 16 and 32 divide both 256 and 96
  EXPECT_EQ(result->valid[1].indices, (std::vector<std::size_t>{1}));
  EXPECT_EQ(result->pruned_by_constraints, 2u);
  auto const why = space.why_invalid(Configuration{{2}}, rules);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "constraint 'N % TILE == 0' (line 2) does not hold for size N=96");
}

TEST(TuningEnumerate, UnknownNamesAndClashesAreErrors) {
  TuningSpace const space = space_of("// kopt:knob N = [1, 2]\n// kopt:constraint N * M <= 8\n");
  auto no_sizes = space.enumerate(TuningRules{});
  ASSERT_FALSE(no_sizes);
  EXPECT_NE(no_sizes.error().message.find("cand.cu:2: kopt:constraint: 'N * M <= 8' uses unknown name 'M'"),
            std::string::npos)
      << no_sizes.error().message;
  TuningRules rules;
  rules.sizes = {ScalarEnv{{"N", 4}, {"M", 2}}};
  auto clash = space.enumerate(rules);
  ASSERT_FALSE(clash);
  EXPECT_NE(clash.error().message.find("cand.cu:1: knob N: has the name of a size scalar"), std::string::npos)
      << clash.error().message;
}

TEST(TuningEnumerate, EvaluationErrorsPruneTheConfiguration) {
  TuningSpace const space = space_of("// kopt:knob D = [0, 1, 2]\n// kopt:constraint 8 / D >= 4\n");
  auto result = space.enumerate(TuningRules{});
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->valid.size(), 2u);
  auto const why = space.why_invalid(Configuration{{0}}, TuningRules{});
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("cannot be evaluated"), std::string::npos) << *why;
}

TEST(TuningEnumerate, PrecisionRelaxingFlagsNeedATolerantTask) {
  TuningSpace const space = space_of(
      "// kopt:knob BLOCK = [128, 256]\n// kopt:flag FAST_MATH = [\"\", \"--use_fast_math\", \"-ftz=true "
      "-prec-div=false\"]\n// kopt:flag MAXRREG = [\"\", \"-maxrregcount=64\"]\n");
  TuningRules strict;
  strict.output_rtol = 1e-6;
  auto pruned = space.enumerate(strict);
  ASSERT_TRUE(pruned) << pruned.error().message;
  EXPECT_EQ(pruned->raw_count, 12u);
  EXPECT_EQ(pruned->valid.size(), 4u);
  EXPECT_EQ(pruned->pruned_by_values, 8u);
  ASSERT_EQ(pruned->pruned_values.size(), 2u);
  EXPECT_EQ(pruned->pruned_values[0].knob, "FAST_MATH");
  EXPECT_EQ(pruned->pruned_values[0].value, "--use_fast_math");
  EXPECT_NE(pruned->pruned_values[0].reason.find("smallest output rtol is 1e-06"), std::string::npos)
      << pruned->pruned_values[0].reason;
  EXPECT_EQ(pruned->pruned_values[1].value, "-ftz=true -prec-div=false");
  auto const why = space.why_invalid(Configuration{{0, 1, 0}}, strict);
  ASSERT_TRUE(why);
  EXPECT_EQ(why->rfind("FAST_MATH=\"--use_fast_math\": --use_fast_math relaxes", 0), 0u) << *why;

  TuningRules tolerant;
  tolerant.output_rtol = 1e-5;  // the boundary is allowed
  auto all = space.enumerate(tolerant);
  ASSERT_TRUE(all) << all.error().message;
  EXPECT_EQ(all->valid.size(), 12u);
  EXPECT_TRUE(all->pruned_values.empty());
}

TEST(TuningEnumerate, PrecisionRuleFromTheTaskTolerance) {
  std::filesystem::path const examples = std::filesystem::path(KOPT_SOURCE_DIR) / "examples";
  auto vector_add = load_task(examples / "vector_add");
  auto sgemm = load_task(examples / "sgemm");
  ASSERT_TRUE(vector_add) << vector_add.error().message;
  ASSERT_TRUE(sgemm) << sgemm.error().message;
  TuningRules const strict = tuning_rules_for(*vector_add);
  EXPECT_DOUBLE_EQ(strict.output_rtol, 1e-6);
  EXPECT_EQ(strict.sizes.size(), vector_add->sizes.size());
  EXPECT_EQ(strict.sizes[0].at("n"), 1000003);
  TuningRules const tolerant = tuning_rules_for(*sgemm);
  EXPECT_DOUBLE_EQ(tolerant.output_rtol, 1e-4);

  TuningSpace const space = space_of("// kopt:flag FAST_MATH = [\"\", \"--use_fast_math\"]\n");
  EXPECT_EQ(space.enumerate(strict)->valid.size(), 1u);
  EXPECT_EQ(space.enumerate(tolerant)->valid.size(), 2u);
}

TEST(TuningEnumerate, RelaxesPrecisionRecognisesTheFlags) {
  EXPECT_TRUE(relaxes_precision("--use_fast_math"));
  EXPECT_TRUE(relaxes_precision("-use_fast_math"));
  EXPECT_TRUE(relaxes_precision("-ftz=true"));
  EXPECT_TRUE(relaxes_precision("--prec-div=false"));
  EXPECT_TRUE(relaxes_precision("-prec-sqrt=false"));
  EXPECT_FALSE(relaxes_precision("-ftz=false"));
  EXPECT_FALSE(relaxes_precision("--prec-div=true"));
  EXPECT_FALSE(relaxes_precision("-maxrregcount=64"));
  EXPECT_FALSE(relaxes_precision("use_fast_math"));
  EXPECT_FALSE(relaxes_precision("-use_fast_mathx"));
}

TEST(TuningEnumerate, LaunchGeometryThatCannotLaunchIsPruned) {
  TuningSpace const space = space_of("// kopt:knob BX = [128, 256, 512]\n// kopt:knob BY = [1, 2, 4]\n");
  TuningRules rules;
  rules.sizes = {ScalarEnv{{"N", 1000}}, ScalarEnv{{"N", 0}}};
  LaunchSpec launch;
  launch.grid = {expr("ceil_div(N, BX)")};
  launch.block = {expr("BX"), expr("BY")};
  launch.shared_bytes = expr("BX * 4");
  rules.launch = launch;
  // N = 0 gives an empty grid for every configuration.
  auto none = space.enumerate(rules);
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_TRUE(none->valid.empty());
  EXPECT_EQ(none->pruned_by_launch, 9u);
  auto const why_empty = space.why_invalid(Configuration{{0, 0}}, rules);
  ASSERT_TRUE(why_empty);
  EXPECT_EQ(*why_empty, "grid dimension 0 'ceil_div(N, BX)' = 0 for size N=0; the limit is 1 to 2147483647");

  rules.sizes = {ScalarEnv{{"N", 1000}}};
  auto some = space.enumerate(rules);
  ASSERT_TRUE(some) << some.error().message;
  EXPECT_EQ(some->valid.size(), 8u);  // only 512 x 4 exceeds 1024 threads
  EXPECT_EQ(some->pruned_by_launch, 1u);
  auto const why = space.why_invalid(Configuration{{2, 2}}, rules);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "block has 2048 threads for size N=1000; the limit is 1024");
}

TEST(TuningEnumerate, RefusesSpacesAboveTheLimit) {
  TuningSpace const space = space_of(
      "// kopt:knob A = range(1, 100)\n// kopt:knob B = range(1, 100)\n// kopt:knob C = range(1, 100)\n");
  TuningRules rules;
  rules.max_configurations = 10000;
  auto result = space.enumerate(rules);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("more than 10000 configurations (raw 1000000)"), std::string::npos)
      << result.error().message;
}

TEST(TuningEnumerate, EmptySpaceHasOneConfiguration) {
  auto result = space_of("").enumerate(TuningRules{});
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->raw_count, 1u);
  ASSERT_EQ(result->valid.size(), 1u);
  EXPECT_TRUE(result->valid[0].indices.empty());
}

}  // namespace enumerate_test
}  // namespace kopt
