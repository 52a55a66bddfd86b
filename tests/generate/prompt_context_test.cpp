// prompt_context_for_task on the real examples: the generator prompt carries the task's sizes, tolerance,
// reference source and the user's intent.
#include <gtest/gtest.h>

#include "generate/generate_fixtures.hpp"
#include "kopt/generate.hpp"

namespace kopt {
namespace prompt_context_test {

using test::kSourceDir;

TEST(PromptContext, SoftmaxGeneratorPromptHasSizesToleranceReferenceAndIntent) {
  auto const task = test::softmax_task();
  auto context = prompt_context_for_task(task, "row-wise softmax over C columns, numerically stable");
  ASSERT_TRUE(context) << context.error().message;
  EXPECT_EQ(context->task_name, "softmax");
  EXPECT_EQ(context->family, "row_softmax");
  EXPECT_EQ(context->dtype, DType::f32);
  EXPECT_FALSE(context->kernel_mode);
  EXPECT_EQ(context->reference_path, "reference.cu");
  EXPECT_EQ(context->reference_source, test::read_file(test::kSoftmaxDir / "reference.cu"));
  ASSERT_EQ(context->tolerances.size(), 1U);
  EXPECT_DOUBLE_EQ(context->tolerances[0].second.rtol, 1e-5);

  PromptOptions options;
  options.prompts_dir = kSourceDir / "prompts";
  auto prompt = build_generator_prompt(*context, options);
  ASSERT_TRUE(prompt) << prompt.error().message;
  std::string const& user = prompt->request.messages.at(0).text;
  EXPECT_NE(user.find("What the user asks for: row-wise softmax over C columns"), std::string::npos);
  EXPECT_NE(user.find("- odd: C=1001, N=37 (checked for correctness, not timed)"), std::string::npos) << user;
  EXPECT_NE(user.find("- large: C=4096, N=16384"), std::string::npos);
  EXPECT_NE(user.find("f32 outputs: atol = 1e-06, rtol = 1e-05"), std::string::npos);
  EXPECT_NE(user.find("softmax_reference_kernel<<<grid, block>>>(out, in, N, C);"), std::string::npos);
  EXPECT_NE(user.find("extern \"C\" void softmax(float* out, const float* in, int N, int C)"),
            std::string::npos);
}

TEST(PromptContext, VectorAddInKernelModeAsksForAGlobalFunction) {
  auto task = load_task(kSourceDir / "examples" / "vector_add");
  ASSERT_TRUE(task) << task.error().message;
  auto context = prompt_context_for_task(*task, "c = a + b", CandidateMode::kernel);
  ASSERT_TRUE(context) << context.error().message;
  EXPECT_TRUE(context->kernel_mode);
  EXPECT_TRUE(context->family.empty());
  EXPECT_DOUBLE_EQ(context->tolerances.at(0).second.atol, 0.0);
  PromptOptions options;
  options.prompts_dir = kSourceDir / "prompts";
  auto prompt = build_generator_prompt(*context, options);
  ASSERT_TRUE(prompt) << prompt.error().message;
  EXPECT_NE(
      prompt->request.messages.at(0).text.find("Device code only: a __global__ function named vector_add"),
      std::string::npos);
  EXPECT_NE(prompt->request.messages.at(0).text.find("- odd: n=1000003"), std::string::npos);
}

TEST(PromptContext, KernelModeWithoutLaunchAndAMissingReferenceAreErrors) {
  auto task = test::softmax_task();
  task.launch.reset();
  auto kernel = prompt_context_for_task(task, "x", CandidateMode::kernel);
  ASSERT_FALSE(kernel);
  EXPECT_EQ(kernel.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(kernel.error().message.find("[launch]"), std::string::npos);

  task.reference.path = test::kSoftmaxDir / "no_such_reference.cu";
  auto missing = prompt_context_for_task(task, "x");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);
  EXPECT_NE(missing.error().message.find("no_such_reference.cu"), std::string::npos);
}

}  // namespace prompt_context_test
}  // namespace kopt
