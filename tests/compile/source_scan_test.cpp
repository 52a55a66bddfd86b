// detect_mode and apply_launch_annotation: pure text functions.
#include <gtest/gtest.h>

#include "kopt/compile.hpp"

namespace kopt {
namespace source_scan_test {

TEST(DetectMode, KernelAndLauncherDefinitions) {
  EXPECT_EQ(detect_mode("extern \"C\" __global__ void softmax(float* o) { }", "softmax"),
            CandidateMode::kernel);
  EXPECT_EQ(
      detect_mode("__global__ void __launch_bounds__(256, 2)\nsoftmax(float* o, int n)\n{\n}\n", "softmax"),
      CandidateMode::kernel);
  EXPECT_EQ(detect_mode("template <int B>\n__global__ void softmax(float* o) {}\n", "softmax<128>"),
            CandidateMode::kernel);
  EXPECT_EQ(detect_mode(R"(
#include <cuda_runtime.h>
__global__ void softmax_kernel(float* o) {}
extern "C" void softmax(float* o, int n) {
  softmax_kernel<<<n, 256>>>(o);
}
)",
                        "softmax"),
            CandidateMode::launcher);
  EXPECT_EQ(detect_mode("extern \"C\" {\nint softmax(float* o) noexcept { return 0; }\n}\n", "softmax"),
            CandidateMode::launcher);
}

TEST(DetectMode, IgnoresCallsPrototypesCommentsAndDeviceFunctions) {
  // Only a prototype and a call: no definition.
  EXPECT_EQ(detect_mode("extern \"C\" void softmax(float*);\nvoid g(float* p) { softmax(p); }\n", "softmax"),
            std::nullopt);
  EXPECT_EQ(detect_mode("// __global__ void softmax(float* o) {}\n/* void softmax(int x) {} */\n", "softmax"),
            std::nullopt);
  EXPECT_EQ(detect_mode("const char* s = \"__global__ void softmax(float* o) {}\";\n", "softmax"),
            std::nullopt);
  EXPECT_EQ(detect_mode("__device__ float softmax(float x) { return x; }\n", "softmax"), std::nullopt);
  EXPECT_EQ(detect_mode("__global__ void softmax_v2(float* o) {}\n", "softmax"), std::nullopt);
  EXPECT_EQ(detect_mode("#define softmax(x) {x}\n", "softmax"), std::nullopt);
  EXPECT_EQ(detect_mode("anything", ""), std::nullopt);
}

LaunchSpec base_launch() {
  LaunchSpec spec;
  spec.kernel = "softmax";
  spec.grid = {Expr::parse("N").value()};
  spec.block = {Expr::constant(128)};
  spec.shared_bytes = Expr::constant(0);
  return spec;
}

TEST(LaunchAnnotation, AbsentKeepsTheTaskValues) {
  auto spec = apply_launch_annotation("__global__ void softmax(float* o) {}\n", base_launch());
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->kernel, "softmax");
  ASSERT_EQ(spec->grid.size(), 1u);
  EXPECT_EQ(spec->grid[0].text(), "N");
  ASSERT_EQ(spec->block.size(), 1u);
}

TEST(LaunchAnnotation, OverridesGivenFields) {
  std::string const source =
      "#include <cuda_bf16.h>\n"
      "  // kopt:launch grid=(ceil_div(N,256), min(C, 4)) block=(256) shared=(2*256*4) kernel=softmax_v3\n"
      "__global__ void softmax_v3(float* o) {}\n";
  auto spec = apply_launch_annotation(source, base_launch());
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->kernel, "softmax_v3");
  ASSERT_EQ(spec->grid.size(), 2u);
  ScalarEnv const env = {{"N", 1000}, {"C", 7}};
  EXPECT_EQ(spec->grid[0].evaluate(env).value(), 4);
  EXPECT_EQ(spec->grid[1].evaluate(env).value(), 4);
  ASSERT_EQ(spec->block.size(), 1u);
  EXPECT_EQ(spec->block[0].evaluate(env).value(), 256);
  EXPECT_EQ(spec->shared_bytes.evaluate(env).value(), 2048);

  auto partial = apply_launch_annotation("// kopt:launch block=(32, 8)\n", base_launch());
  ASSERT_TRUE(partial) << partial.error().message;
  EXPECT_EQ(partial->kernel, "softmax");
  EXPECT_EQ(partial->grid[0].text(), "N");
  EXPECT_EQ(partial->block.size(), 2u);
}

TEST(CandidateLaunch, AnAnnotationAloneIsEnoughWithoutTheTasksLaunchSection) {
  auto spec = candidate_launch("// kopt:launch grid=(ceil_div(n, 256)) block=(256)\n", std::nullopt, "probe");
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->kernel, "probe");
  ScalarEnv const env = {{"n", 1000}};
  EXPECT_EQ(spec->grid[0].evaluate(env).value(), 4);
  EXPECT_EQ(spec->block[0].evaluate(env).value(), 256);
  EXPECT_EQ(spec->shared_bytes.evaluate(env).value(), 0);

  auto with_task = candidate_launch("// kopt:launch block=(128)\n", base_launch(), "probe");
  ASSERT_TRUE(with_task) << with_task.error().message;
  EXPECT_EQ(with_task->kernel, "softmax") << "the task's kernel name wins over the entry";
  EXPECT_EQ(with_task->grid[0].text(), "N");
}

TEST(CandidateLaunch, MissingGeometryIsNotFoundAndAMalformedLineIsInvalid) {
  auto none = candidate_launch("__global__ void probe() {}\n", std::nullopt, "probe");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ErrorCode::not_found);
  EXPECT_NE(none.error().message.find("[launch]"), std::string::npos) << none.error().message;
  auto grid_only = candidate_launch("// kopt:launch grid=(4)\n", std::nullopt, "probe");
  ASSERT_FALSE(grid_only);
  EXPECT_EQ(grid_only.error().code, ErrorCode::not_found);
  auto malformed = candidate_launch("// kopt:launch grid=(N +) block=(1)\n", std::nullopt, "probe");
  ASSERT_FALSE(malformed);
  EXPECT_EQ(malformed.error().code, ErrorCode::invalid_spec);
}

TEST(LaunchAnnotation, ErrorsNameLineAndField) {
  auto bad_expr = apply_launch_annotation("\n\n// kopt:launch grid=(N +) block=(256)\n", base_launch());
  ASSERT_FALSE(bad_expr);
  EXPECT_EQ(bad_expr.error().code, ErrorCode::invalid_spec);
  EXPECT_NE(bad_expr.error().message.find("line 3"), std::string::npos) << bad_expr.error().message;
  EXPECT_NE(bad_expr.error().message.find("'grid'"), std::string::npos) << bad_expr.error().message;

  auto too_many = apply_launch_annotation("// kopt:launch block=(1,2,3,4)\n", base_launch());
  ASSERT_FALSE(too_many);
  EXPECT_NE(too_many.error().message.find("'block'"), std::string::npos);
  EXPECT_NE(too_many.error().message.find("1 to 3"), std::string::npos);

  auto unknown = apply_launch_annotation("// kopt:launch threads=(256)\n", base_launch());
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("unknown field 'threads'"), std::string::npos);

  auto unclosed = apply_launch_annotation("x\n// kopt:launch grid=(ceil_div(N,2)\n", base_launch());
  ASSERT_FALSE(unclosed);
  EXPECT_NE(unclosed.error().message.find("line 2"), std::string::npos);
  EXPECT_NE(unclosed.error().message.find("')'"), std::string::npos);

  auto twice =
      apply_launch_annotation("// kopt:launch block=(64)\n// kopt:launch block=(32)\n", base_launch());
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("line 2"), std::string::npos);
  EXPECT_NE(twice.error().message.find("line 1"), std::string::npos);

  auto bad_kernel = apply_launch_annotation("// kopt:launch kernel=(a b)\n", base_launch());
  ASSERT_FALSE(bad_kernel);
  EXPECT_NE(bad_kernel.error().message.find("'kernel'"), std::string::npos);

  auto empty = apply_launch_annotation("// kopt:launch\n", base_launch());
  ASSERT_FALSE(empty);
}

TEST(LaunchAnnotation, ArgsNameParametersOrTypedComputedValues) {
  auto spec = apply_launch_annotation(
      "// kopt:launch args=(c, a, b, i32(rows * cols / 100), i64(N), f32(0.5), f64(-1e-3))\n", base_launch());
  ASSERT_TRUE(spec) << spec.error().message;
  ASSERT_EQ(spec->args.size(), 7u);
  EXPECT_EQ(spec->args[0].parameter, "c");
  EXPECT_EQ(spec->args[2].parameter, "b");
  EXPECT_TRUE(spec->args[3].parameter.empty());
  EXPECT_EQ(spec->args[3].type, DType::i32);
  EXPECT_EQ(spec->args[3].expression.evaluate({{"rows", 300}, {"cols", 200}}).value(), 600);
  EXPECT_EQ(spec->args[4].type, DType::i64);
  EXPECT_EQ(spec->args[5].type, DType::f32);
  EXPECT_DOUBLE_EQ(spec->args[5].number, 0.5);
  EXPECT_DOUBLE_EQ(spec->args[6].number, -1e-3);
  EXPECT_EQ(spec->args[3].text, "i32(rows * cols / 100)");
  EXPECT_FALSE(spec->args[5].converted);

  // f32 of a name: the task's double parameter, rounded to float (a float role bound to a double scalar).
  auto converted = apply_launch_annotation("// kopt:launch args=(c, f32(alpha))\n", base_launch());
  ASSERT_TRUE(converted) << converted.error().message;
  EXPECT_EQ(converted->args[1].parameter, "alpha");
  EXPECT_TRUE(converted->args[1].converted);
  EXPECT_EQ(converted->args[1].type, DType::f32);

  auto absent = apply_launch_annotation("// kopt:launch block=(64)\n", base_launch());
  ASSERT_TRUE(absent);
  EXPECT_TRUE(absent->args.empty());
}

TEST(LaunchAnnotation, MalformedArgsNameTheArgument) {
  for (char const* bad : {"args=(c, 2 * n)", "args=(c, f16(1.0))", "args=(c, f64(half))",
                          "args=(c, i32(n +))", "args=(c, , n)", "args=(c, i32(n)x)"}) {
    auto spec = apply_launch_annotation(std::string("// kopt:launch ") + bad + "\n", base_launch());
    ASSERT_FALSE(spec) << bad;
    EXPECT_EQ(spec.error().code, ErrorCode::invalid_spec);
    EXPECT_NE(spec.error().message.find("'args'"), std::string::npos) << spec.error().message;
  }
}

TEST(LaunchAnnotation, OnlyCommentLinesCount) {
  // A string that mentions the marker, or a longer word, is not an annotation.
  auto spec = apply_launch_annotation(
      "const char* s = \"kopt:launch grid=(1)\";\n// kopt:launcher grid=(1)\n", base_launch());
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->grid[0].text(), "N");
}

}  // namespace source_scan_test
}  // namespace kopt
