// `// kopt:arch sm_90a`: architecture-specific candidates (docs/compile.md). NVRTC really compiles here.
#include "compile/arch_directive.hpp"

#include <gtest/gtest.h>

#include "compile_test_support.hpp"
#include "kopt/compile.hpp"

namespace kopt {
namespace arch_directive_test {

using testing::kernel_request;
using testing::make_compiler;
using testing::TempDir;

// setmaxnreg exists only in the architecture-specific target sm_90a.
constexpr char kSetMaxNReg[] = R"(
extern "C" __global__ void grow(float* out) {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n");
  out[threadIdx.x] = 1.0f;
}
)";

TEST(ArchDirective, TheTargetOrItsArchitectureSpecificVariantOnly) {
  EXPECT_EQ(*detail::requested_arch("__global__ void k() {}\n", "sm_90"), "sm_90");
  EXPECT_EQ(*detail::requested_arch("// x\n  // kopt:arch sm_90a  \n", "sm_90"), "sm_90a");
  EXPECT_EQ(*detail::requested_arch("// kopt:arch sm_90\n", "sm_90"), "sm_90");
  EXPECT_EQ(*detail::requested_arch("// kopt:arch sm_90a\n", "sm_90a"), "sm_90a");
  EXPECT_EQ(*detail::requested_arch("// kopt:architecture sm_90a\n", "sm_90"), "sm_90") << "another word";
  auto wrong = detail::requested_arch("\n\n// kopt:arch sm_100a\n// kopt:arch sm_90a\n", "sm_90");
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().message,
            "line 3: kopt:arch: expected sm_90 or sm_90a (the target and its architecture-specific "
            "variant), got 'sm_100a'");
}

TEST(ArchDirective, BuildsTheCandidateForSm90aAndRefusesOtherGpus) {
  TempDir cache;
  CompileOptions options;
  options.arch = "sm_90";
  Compiler const compiler = make_compiler(cache.path(), options);

  auto plain = compiler.compile(kernel_request(kSetMaxNReg, "grow"));
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_FALSE(plain->ok) << "setmaxnreg must not build for plain sm_90";

  auto specific =
      compiler.compile(kernel_request(std::string("// kopt:arch sm_90a\n") + kSetMaxNReg, "grow"));
  ASSERT_TRUE(specific) << specific.error().message;
  EXPECT_TRUE(specific->ok) << specific->diagnostics;
  EXPECT_EQ(specific->artifact.arch, "sm_90a");

  auto other = compiler.compile(kernel_request(std::string("// kopt:arch sm_100a\n") + kSetMaxNReg, "grow"));
  ASSERT_TRUE(other) << other.error().message;
  EXPECT_FALSE(other->ok);
  EXPECT_NE(other->diagnostics.find("cand.cu: line 1: kopt:arch: expected sm_90 or sm_90a"),
            std::string::npos)
      << other->diagnostics;
}

}  // namespace arch_directive_test
}  // namespace kopt
