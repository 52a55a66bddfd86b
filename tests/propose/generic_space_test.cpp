// kopt's generic tuning space for kernels that declare none: flags for any candidate; block size,
// __launch_bounds__ and __restrict__ for a kernel-mode one; every configuration compiles.
#include <gtest/gtest.h>

#include "kopt/compile.hpp"
#include "kopt/optimize.hpp"
#include "kopt/propose.hpp"
#include "kopt/tuning.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace generic_space_test {

std::filesystem::path const kTaskDir = std::filesystem::path(KOPT_SOURCE_DIR) / "examples" / "vector_add";

std::string const kNaiveKernel = R"kopt(// kopt:launch grid=(ceil_div(n, 256)) block=(256)
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
)kopt";

TEST(GenericSpace, AKernelGetsBlockSizeBoundsRestrictAndFlags) {
  auto task = load_task(kTaskDir);
  ASSERT_TRUE(task) << task.error().message;
  auto generic = generic_tuning_space(kNaiveKernel, *task);
  ASSERT_TRUE(generic) << generic.error().message;
  auto const& text = generic->source;
  EXPECT_NE(text.find("// kopt:launch grid=(ceil_div(n, BLOCK)) block=(BLOCK) shared=(0) kernel=vector_add"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("block=(256)"), std::string::npos) << "the old annotation is gone";
  EXPECT_NE(
      text.find("__global__ void __launch_bounds__(BLOCK) vector_add(float* KOPT_RESTRICT c, const float* "
                "KOPT_RESTRICT a, const float* KOPT_RESTRICT b, int n)"),
      std::string::npos)
      << text;
  EXPECT_EQ(generic->added.size(), 5u);

  auto space = TuningSpace::parse(text, "generic.cu");
  ASSERT_TRUE(space) << space.error().message;
  auto enumeration = space->enumerate(tuning_rules_for(*task));
  ASSERT_TRUE(enumeration) << enumeration.error().message;
  // BLOCK 5 x RESTRICT 2 x MAXRREG 4; FAST_MATH's flag is pruned: vector_add's rtol is 1e-6.
  EXPECT_EQ(enumeration->valid.size(), 40u);

  test::TempDir cache;
  CompileOptions options;
  options.arch = "sm_90";
  options.cache_dir = cache.path();
  options.jobs = 2;
  auto compiler = Compiler::create(options);
  ASSERT_TRUE(compiler) << compiler.error().message;
  std::vector<CompileRequest> requests;
  for (auto const& config : {enumeration->valid.front(), enumeration->valid.back()}) {
    auto candidate = materialise(*space, config, text, *task);
    ASSERT_TRUE(candidate) << candidate.error().message;
    CompileRequest request;
    request.mode = CandidateMode::kernel;
    request.source = candidate->source;
    request.origin = candidate->name + ".cu";
    request.entry = "vector_add";
    request.flags = candidate->flags;
    requests.push_back(request);
  }
  for (auto const& outcome : compiler->compile_all(requests)) {
    ASSERT_TRUE(outcome) << outcome.error().message;
    EXPECT_TRUE(outcome->ok) << outcome->diagnostics;
  }
}

// Outside text (issue #23): 1 MiB between __global__ and the kernel's name (`__global__ a a a ...`) and after
// the launch annotation. std::regex recursed once per character of a repetition: `kopt optimize --from` died
// with SIGSEGV on such a source. RE2 reads it in linear time and the rewrite is the usual one.
TEST(GenericSpace, MegabyteRunsInTheSourceAreRewrittenNotACrash) {
  auto task = load_task(kTaskDir);
  ASSERT_TRUE(task) << task.error().message;
  std::string run;
  for (int i = 0; i < 512 * 1024; ++i) run += "a ";
  std::string const source = "// kopt:launch grid=(ceil_div(n, 256)) block=(256)" +
                             std::string(std::size_t{1} << 20, ' ') + "\n__global__ " + run + "\n" +
                             kNaiveKernel.substr(kNaiveKernel.find('\n') + 1);
  auto generic = generic_tuning_space(source, *task);
  ASSERT_TRUE(generic) << generic.error().message.substr(0, 500);
  auto const& text = generic->source;
  EXPECT_NE(text.find("// kopt:launch grid=(ceil_div(n, BLOCK)) block=(BLOCK) shared=(0) kernel=vector_add"),
            std::string::npos);
  EXPECT_EQ(text.find("block=(256)"), std::string::npos) << "the old annotation is gone";
  EXPECT_NE(text.find("__global__ " + run + "\n"), std::string::npos);
  EXPECT_NE(
      text.find("__global__ void __launch_bounds__(BLOCK) vector_add(float* KOPT_RESTRICT c, const float* "
                "KOPT_RESTRICT a, const float* KOPT_RESTRICT b, int n)"),
      std::string::npos);
  EXPECT_EQ(generic->added.size(), 5u);
}

TEST(GenericSpace, ALauncherGetsTheFlagsOnly) {
  auto task = load_task(kTaskDir);
  ASSERT_TRUE(task) << task.error().message;
  std::string const launcher =
      "__global__ void k(float* c, const float* a, const float* b, int n) {}\n"
      "extern \"C\" void vector_add(float* c, const float* a, const float* b, int n) { k<<<1, 1>>>(c, a, b, "
      "n); }\n";
  auto generic = generic_tuning_space(launcher, *task);
  ASSERT_TRUE(generic) << generic.error().message;
  EXPECT_EQ(generic->added.size(), 2u);
  EXPECT_EQ(generic->source.find("KOPT_RESTRICT"), std::string::npos);
  auto space = TuningSpace::parse(generic->source, "generic.cu");
  ASSERT_TRUE(space) << space.error().message;
  EXPECT_EQ(space->knobs().size(), 2u);
}

TEST(GenericSpace, ACandidateWithItsOwnSpaceIsLeftAlone) {
  auto task = load_task(kTaskDir);
  ASSERT_TRUE(task) << task.error().message;
  auto generic = generic_tuning_space("// kopt:knob B = [1, 2]\n" + kNaiveKernel, *task);
  ASSERT_FALSE(generic);
  EXPECT_EQ(generic.error().code, ErrorCode::invalid_argument);
  EXPECT_FALSE(generic_tuning_space("int x;\n", *task));
}

}  // namespace generic_space_test
}  // namespace kopt
