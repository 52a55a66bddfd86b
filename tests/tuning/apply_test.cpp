// TuningSpace::apply: -D macros, flag arguments, substituted launch geometry; the result compiles.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "kopt/compile.hpp"
#include "kopt/tuning.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace apply_test {

// A 2-knob kernel: BLOCK threads, each handling ITEMS elements; the template argument comes from a macro.
constexpr char kScaleSource[] = R"(// kopt:knob BLOCK = [64, 128, 256]
// kopt:knob ITEMS = [1, 2, 4]
// kopt:flag FAST_MATH = ["", "--use_fast_math"]
// kopt:constraint BLOCK * ITEMS <= 512
// kopt:launch grid=(ceil_div(n, BLOCK * ITEMS)) block=(BLOCK) kernel=scale<BLOCK>
template <int Threads>
__global__ void __launch_bounds__(Threads) scale(float* out, const float* in, int n) {
  int const first = blockIdx.x * Threads * ITEMS + threadIdx.x;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    int const i = first + k * Threads;
    if (i < n) out[i] = 2.0f * in[i];
  }
}
)";

TuningSpace space_of(std::string const& source) {
  auto space = TuningSpace::parse(source, "scale.cu");
  if (!space) throw std::runtime_error(space.error().message);
  return std::move(*space);
}

LaunchSpec task_launch() {
  LaunchSpec launch;
  launch.kernel = "scale";
  launch.grid = {Expr::parse("n").value()};
  launch.block = {Expr::constant(256)};
  return launch;
}

CompileRequest base_request() {
  CompileRequest request;
  request.mode = CandidateMode::kernel;
  request.source = kScaleSource;
  request.origin = "scale.cu";
  request.entry = "scale<BLOCK>";
  request.flags = {"-lineinfo"};
  return request;
}

TEST(TuningApply, MacrosFlagsAndSubstitutedLaunch) {
  TuningSpace const space = space_of(kScaleSource);
  auto launch = apply_launch_annotation(kScaleSource, task_launch());
  ASSERT_TRUE(launch) << launch.error().message;
  auto config = space.configuration({{"BLOCK", "128"}, {"ITEMS", "4"}, {"FAST_MATH", "--use_fast_math"}});
  ASSERT_TRUE(config) << config.error().message;
  auto applied = space.apply(*config, base_request(), *launch);
  ASSERT_TRUE(applied) << applied.error().message;

  EXPECT_EQ(applied->request.flags,
            (std::vector<std::string>{"-lineinfo", "-DBLOCK=128", "-DITEMS=4", "--use_fast_math"}));
  EXPECT_EQ(applied->request.entry, "scale<128>");
  ASSERT_EQ(applied->launch.grid.size(), 1u);
  EXPECT_EQ(applied->launch.grid[0].text(), "ceil_div(n, 128 * 4)");
  ASSERT_EQ(applied->launch.block.size(), 1u);
  EXPECT_EQ(applied->launch.block[0].text(), "128");
  EXPECT_EQ(applied->launch.kernel, "scale<128>");
  // Only size scalars are left: the worker can evaluate the geometry.
  auto const grid = applied->launch.grid[0].evaluate(ScalarEnv{{"n", 1000}});
  ASSERT_TRUE(grid) << grid.error().message;
  EXPECT_EQ(*grid, 2);

  // The source's own launch line carries the values; everything else is unchanged.
  std::string const& source = applied->request.source;
  EXPECT_NE(source.find("// kopt:launch grid=(ceil_div(n, 128 * 4)) block=(128) kernel=scale<128>\n"),
            std::string::npos)
      << source;
  EXPECT_NE(source.find("// kopt:knob BLOCK = [64, 128, 256]\n"), std::string::npos);
  EXPECT_NE(source.find("blockIdx.x * Threads * ITEMS"), std::string::npos);
  auto const reread = apply_launch_annotation(source, task_launch());
  ASSERT_TRUE(reread) << reread.error().message;
  EXPECT_EQ(reread->grid[0].text(), "ceil_div(n, 128 * 4)");
  // A source without a trailing newline keeps it that way.
  CompileRequest no_newline = base_request();
  no_newline.source = "// kopt:launch block=(BLOCK)";
  auto applied_short = space.apply(*config, no_newline, *launch);
  ASSERT_TRUE(applied_short);
  EXPECT_EQ(applied_short->request.source, "// kopt:launch block=(128)");
}

TEST(TuningApply, NegativeValuesAreParenthesisedAndBadConfigurationsRejected) {
  TuningSpace const space = space_of("// kopt:knob OFF = [-3, 5]\n");
  LaunchSpec launch;
  launch.grid = {Expr::parse("N-OFF").value()};
  launch.block = {Expr::constant(32)};
  auto applied = space.apply(Configuration{{0}}, CompileRequest{}, launch);
  ASSERT_TRUE(applied) << applied.error().message;
  EXPECT_EQ(applied->launch.grid[0].text(), "N-(-3)");
  EXPECT_EQ(applied->launch.grid[0].evaluate(ScalarEnv{{"N", 10}}).value(), 13);
  EXPECT_EQ(applied->request.flags, (std::vector<std::string>{"-DOFF=-3"}));
  auto bad = space.apply(Configuration{{2}}, CompileRequest{}, launch);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::invalid_argument);
}

TEST(TuningApply, EveryValidConfigurationCompilesWithNvrtc) {
  kopt::test::TempDir cache;
  CompileOptions options;
  options.cache_dir = cache.path();
  options.jobs = 2;
  auto compiler = Compiler::create(options);
  ASSERT_TRUE(compiler) << compiler.error().message;

  TuningSpace const space = space_of(kScaleSource);
  auto launch = apply_launch_annotation(kScaleSource, task_launch());
  ASSERT_TRUE(launch) << launch.error().message;
  TuningRules rules;
  rules.output_rtol = 1e-4;
  rules.sizes = {ScalarEnv{{"n", 1000}}};
  rules.launch = *launch;
  auto enumeration = space.enumerate(rules);
  ASSERT_TRUE(enumeration) << enumeration.error().message;
  EXPECT_EQ(enumeration->raw_count, 18u);
  EXPECT_EQ(enumeration->valid.size(), 16u);  // 256 x 4 breaks BLOCK * ITEMS <= 512
  std::vector<CompileRequest> requests;
  for (Configuration const& config : enumeration->valid) {
    auto applied = space.apply(config, base_request(), *launch);
    ASSERT_TRUE(applied) << applied.error().message;
    requests.push_back(applied->request);
  }
  auto const outcomes = compiler->compile_all(requests);
  ASSERT_EQ(outcomes.size(), requests.size());
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    std::string const key = space.config_key(enumeration->valid[i]);
    ASSERT_TRUE(outcomes[i]) << key << ": " << outcomes[i].error().message;
    EXPECT_TRUE(outcomes[i]->ok) << key << ": " << outcomes[i]->diagnostics;
    EXPECT_NE(outcomes[i]->artifact.symbol.find("scale"), std::string::npos) << key;
  }
  // Different configurations are different builds.
  EXPECT_NE(outcomes[0]->artifact.key, outcomes[1]->artifact.key);

  // Without the macros the kernel does not compile: the -D flags really reach NVRTC.
  CompileRequest bare = base_request();
  bare.entry = "scale<128>";
  auto failed = compiler->compile(bare);
  ASSERT_TRUE(failed) << failed.error().message;
  EXPECT_FALSE(failed->ok);
  EXPECT_NE(failed->diagnostics.find("ITEMS"), std::string::npos) << failed->diagnostics;
}

}  // namespace apply_test
}  // namespace kopt
