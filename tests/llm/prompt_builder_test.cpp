// Building role prompts: what they must contain, and the token budget cutting sections in order.
#include <gtest/gtest.h>

#include <filesystem>

#include "kopt/llm_roles.hpp"

namespace kopt {
namespace prompt_builder_test {

namespace fs = std::filesystem;

PromptOptions options_with_budget(std::size_t tokens, EditFormat format = EditFormat::whole_file) {
  PromptOptions options;
  options.prompts_dir = fs::path(KOPT_SOURCE_DIR) / "prompts";
  options.max_prompt_tokens = tokens;
  options.edit_format = format;
  return options;
}

std::string many_lines(std::string const& prefix, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out += prefix + " line " + std::to_string(i) + " with some filler text\n";
  return out;
}

PromptContext softmax_context() {
  PromptContext c;
  c.task_name = "row_softmax";
  c.description = "Softmax over each row of an N x C matrix.";
  c.family = "row_softmax";
  c.signature.function = "softmax";
  c.signature.params = {
      Param{"out", "float*", true, DType::f32, false}, Param{"in", "const float*", true, DType::f32, true},
      Param{"N", "int", false, DType::i32, false}, Param{"C", "int", false, DType::i32, false}};
  c.dtype = DType::f32;
  c.sizes = {SizeCase{"odd", {{"N", std::int64_t{7}}, {"C", std::int64_t{33}}}, true},
             SizeCase{"small", {{"N", std::int64_t{128}}, {"C", std::int64_t{1000}}}, false},
             SizeCase{"large", {{"N", std::int64_t{8192}}, {"C", std::int64_t{4096}}}, false}};
  c.tolerances = {{DType::f32, ToleranceSpec{1e-5, 1e-4, 0.0}}};
  c.reference_path = "tasks/softmax/reference.cu";
  c.reference_source =
      "__global__ void softmax_ref(float* out, const float* in, int N, int C) {}\n"
      "extern \"C\" void softmax(float* out, const float* in, int N, int C) {}\n";
  c.kernel_source = "__global__ void k(float* out) { out[0] = 1.0f; }\n";
  c.times = {PromptTiming{"small", 12.5, 1.25}, PromptTiming{"large", 410.0, std::nullopt}};
  c.findings =
      "memory-bound (DRAM), 41 % of speed of light\n- uncoalesced_access: high; 8 sectors per request\n";
  c.errors = "kernel.cu(12): error: identifier \"blockDimx\" is undefined\n";
  c.siblings = {SiblingOutcome{"vectorize_global_access", "correct, 1.7x faster on large"},
                SiblingOutcome{"use_warp_shuffle", "wrong on size odd (max error 3.2)"}};
  c.strategy_name = "stage_through_shared_memory";
  c.strategy_description = "Load each row tile into shared memory once.";
  c.options = {PromptOption{"tune_block_size", "Change threads per block.", ""},
               PromptOption{"use_warp_shuffle", "Reduce within a warp with shuffles.", "rows fit a warp"}};
  c.plan = "Stage the row in shared memory and reduce with shuffles.";
  return c;
}

std::string const& user_text(BuiltPrompt const& built) {
  return built.request.messages.at(0).text;
}

TEST(PromptBuilder, GeneratorPromptHoldsTheTaskTheRulesAndTheEvidence) {
  auto built = build_generator_prompt(softmax_context(), options_with_budget(24'000));
  ASSERT_TRUE(built.ok()) << built.error().message;
  auto const& user = user_text(*built);
  auto const& system = built->request.system;
  EXPECT_NE(system.find("Do not skip work"), std::string::npos);
  EXPECT_NE(system.find("default stream"), std::string::npos);
  EXPECT_NE(user.find("correct for all 3 size cases"), std::string::npos);
  EXPECT_NE(user.find("- odd: C=33, N=7 (checked for correctness, not timed)"), std::string::npos) << user;
  EXPECT_NE(user.find("- large: C=4096, N=8192"), std::string::npos);
  EXPECT_NE(user.find("atol = 1e-05, rtol = 0.0001, mismatch_fraction = 0"), std::string::npos) << user;
  EXPECT_NE(user.find("atol * max|ref| + rtol * |ref|"), std::string::npos);
  EXPECT_NE(user.find("void softmax(float* out, const float* in, int N, int C)"), std::string::npos);
  EXPECT_NE(user.find("extern \"C\" void softmax(float* out"), std::string::npos);   // the reference source
  EXPECT_NE(user.find("uncoalesced_access: high"), std::string::npos);               // findings
  EXPECT_NE(user.find("identifier \"blockDimx\" is undefined"), std::string::npos);  // error excerpts
  EXPECT_NE(user.find("use_warp_shuffle: wrong on size odd"), std::string::npos);    // siblings
  EXPECT_NE(user.find("- small: 12.5 us median (1.25x"), std::string::npos);         // times
  EXPECT_NE(user.find("Strategy to apply: stage_through_shared_memory"), std::string::npos);
  EXPECT_NE(user.find("one ```cuda fenced block"), std::string::npos);  // output format
  EXPECT_EQ(user.find("{{"), std::string::npos);
  EXPECT_EQ(user.find("Note: to fit"), std::string::npos);
  EXPECT_TRUE(built->cuts.empty());
  EXPECT_EQ(built->request.messages.size(), 1U);
  EXPECT_EQ(built->request.messages[0].role, "user");
  EXPECT_EQ(built->estimated_tokens, estimate_tokens(system) + estimate_tokens(user));
  EXPECT_EQ(built->template_file.filename(), "generator.v1.md");
}

TEST(PromptBuilder, EmptySectionsLeaveTheirHeadingsOut) {
  auto context = softmax_context();
  context.findings.clear();
  context.siblings.clear();
  context.errors.clear();
  context.kernel_source.clear();
  context.times.clear();
  context.strategy_name.clear();
  auto built = build_generator_prompt(context, options_with_budget(24'000));
  ASSERT_TRUE(built.ok()) << built.error().message;
  auto const& user = user_text(*built);
  EXPECT_EQ(user.find("Profiler findings"), std::string::npos);
  EXPECT_EQ(user.find("other attempts"), std::string::npos);
  EXPECT_EQ(user.find("previous attempt failed"), std::string::npos);
  EXPECT_EQ(user.find("current best kernel"), std::string::npos);
  EXPECT_EQ(user.find("Strategy to apply"), std::string::npos);
}

TEST(PromptBuilder, KernelModeDescribesDeviceCodeOnly) {
  auto context = softmax_context();
  context.kernel_mode = true;
  auto built = build_generator_prompt(context, options_with_budget(24'000));
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_NE(user_text(*built).find("a __global__ function named softmax"), std::string::npos);
  EXPECT_NE(user_text(*built).find("kopt:launch"), std::string::npos);
}

TEST(PromptBuilder, EachRoleAsksForItsOwnOutputFormat) {
  auto context = softmax_context();
  auto planner = build_planner_prompt(context, options_with_budget(24'000));
  ASSERT_TRUE(planner.ok()) << planner.error().message;
  EXPECT_NE(user_text(*planner).find("CHOICE: <the name of one option above>"), std::string::npos);
  EXPECT_NE(
      user_text(*planner).find("- use_warp_shuffle: Reduce within a warp with shuffles. (applies when: rows "
                               "fit a warp)"),
      std::string::npos);
  auto coder = build_coder_prompt(context, options_with_budget(24'000, EditFormat::search_replace));
  ASSERT_TRUE(coder.ok()) << coder.error().message;
  EXPECT_NE(user_text(*coder).find("<<<<<<< SEARCH"), std::string::npos);
  EXPECT_NE(user_text(*coder).find("Stage the row in shared memory"), std::string::npos);  // the plan
  auto coder_whole = build_coder_prompt(context, options_with_budget(24'000));
  ASSERT_TRUE(coder_whole.ok());
  EXPECT_EQ(user_text(*coder_whole).find("<<<<<<< SEARCH"), std::string::npos);
  auto judge = build_judge_prompt(context, options_with_budget(24'000));
  ASSERT_TRUE(judge.ok()) << judge.error().message;
  EXPECT_NE(user_text(*judge).find("VERDICT: accept"), std::string::npos);
  EXPECT_NE(user_text(*judge).find("The kernel to review"), std::string::npos);
  // A generator always writes whole files, whatever the options say.
  auto generator = build_generator_prompt(context, options_with_budget(24'000, EditFormat::search_replace));
  ASSERT_TRUE(generator.ok());
  EXPECT_EQ(user_text(*generator).find("<<<<<<< SEARCH"), std::string::npos);
}

TEST(PromptBuilder, MissingEssentialsAreErrorsNamingTheField) {
  auto context = softmax_context();
  context.kernel_source.clear();
  auto coder = build_coder_prompt(context, options_with_budget(24'000));
  ASSERT_FALSE(coder.ok());
  EXPECT_EQ(coder.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(coder.error().message.find("PromptContext::kernel_source"), std::string::npos);
  context = softmax_context();
  context.sizes.clear();
  auto generator = build_generator_prompt(context, options_with_budget(24'000));
  ASSERT_FALSE(generator.ok());
  EXPECT_NE(generator.error().message.find("PromptContext::sizes"), std::string::npos);
}

// A context whose sections are large enough that each step of the cutting order matters.
PromptContext large_context() {
  auto c = softmax_context();
  c.siblings.clear();
  for (int i = 0; i < 40; ++i) {
    c.siblings.push_back(
        SiblingOutcome{"attempt_" + std::to_string(i), "correct, 1.0x, nothing gained at all here"});
  }
  c.findings = many_lines("finding", 60);
  c.errors = many_lines("error", 60);
  c.reference_source = many_lines("// reference", 120);
  c.kernel_source = many_lines("// kernel", 120);
  return c;
}

std::vector<std::string> cut_sections(BuiltPrompt const& built) {
  std::vector<std::string> out;
  for (auto const& cut : built.cuts) out.push_back(cut.section);
  return out;
}

TEST(PromptBuilder, BudgetCutsSiblingsFirstAndSaysSo) {
  auto context = large_context();
  auto full = build_generator_prompt(context, options_with_budget(1'000'000));
  ASSERT_TRUE(full.ok());
  ASSERT_TRUE(full->cuts.empty());
  auto const budget = full->estimated_tokens - 100;  // the siblings alone hold far more than 100 tokens
  auto built = build_generator_prompt(context, options_with_budget(budget));
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_LE(built->estimated_tokens, budget);
  ASSERT_EQ(cut_sections(*built), std::vector<std::string>{"sibling outcomes"});
  EXPECT_NE(built->cuts[0].what.find("of 40 left out"), std::string::npos) << built->cuts[0].what;
  auto const& user = user_text(*built);
  EXPECT_NE(user.find("attempt_0:"), std::string::npos);   // the most relevant stay
  EXPECT_EQ(user.find("attempt_39:"), std::string::npos);  // the last go first
  EXPECT_NE(user.find("Note: to fit kopt's prompt budget, these sections were shortened: sibling outcomes ("),
            std::string::npos);
  EXPECT_NE(user.find("finding line 59"), std::string::npos);  // nothing else was touched
  EXPECT_NE(user.find("// reference line 119"), std::string::npos);
}

TEST(PromptBuilder, BudgetCutsInTheDocumentedOrder) {
  auto context = large_context();
  auto full = build_generator_prompt(context, options_with_budget(1'000'000));
  ASSERT_TRUE(full.ok());
  auto const siblings_tokens =
      estimate_tokens(std::string(std::size_t{40} * 60, 'x'));  // an over-estimate of the list
  auto const findings_tokens = estimate_tokens(context.findings);
  auto const errors_tokens = estimate_tokens(context.errors);

  // Past the siblings: findings go next, errors and sources stay whole.
  auto budget = full->estimated_tokens - siblings_tokens - findings_tokens / 2;
  auto built = build_generator_prompt(context, options_with_budget(budget));
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_LE(built->estimated_tokens, budget);
  EXPECT_EQ(cut_sections(*built), (std::vector<std::string>{"sibling outcomes", "profiler findings"}));
  EXPECT_NE(user_text(*built).find("finding line 0 "), std::string::npos);  // the most severe stay
  EXPECT_EQ(user_text(*built).find("finding line 59"), std::string::npos);
  EXPECT_NE(user_text(*built).find("lines left out to fit the prompt budget"), std::string::npos);
  EXPECT_NE(user_text(*built).find("error line 59"), std::string::npos);

  // Much tighter: findings and errors are gone, the sources are shortened head and tail.
  budget = full->estimated_tokens - siblings_tokens - findings_tokens - errors_tokens - 400;
  built = build_generator_prompt(context, options_with_budget(budget));
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_LE(built->estimated_tokens, budget);
  auto const sections = cut_sections(*built);
  ASSERT_GE(sections.size(), 4U);
  EXPECT_EQ(sections[0], "sibling outcomes");
  EXPECT_EQ(sections[1], "profiler findings");
  EXPECT_EQ(sections[2], "error excerpts");
  EXPECT_EQ(sections[3], "reference source");
  auto const& user = user_text(*built);
  EXPECT_NE(user.find("// reference line 0 "), std::string::npos);   // head kept
  EXPECT_NE(user.find("// reference line 119"), std::string::npos);  // tail kept
  EXPECT_NE(user.find("reference source ("), std::string::npos);     // named in the note
}

TEST(PromptBuilder, CoderInSearchReplaceFormatNeverCutsTheKernel) {
  auto context = large_context();
  auto options = options_with_budget(1'000'000, EditFormat::search_replace);
  auto full = build_coder_prompt(context, options);
  ASSERT_TRUE(full.ok()) << full.error().message;
  // Room for the kernel but not for everything: the kernel stays whole.
  options.max_prompt_tokens = full->estimated_tokens - estimate_tokens(context.findings);
  auto built = build_coder_prompt(context, options);
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_NE(user_text(*built).find(context.kernel_source), std::string::npos);
  for (auto const& cut : built->cuts) EXPECT_NE(cut.section, "current kernel");
  // Less than the kernel alone: an error, not a broken kernel.
  options.max_prompt_tokens = estimate_tokens(context.kernel_source);
  auto refused = build_coder_prompt(context, options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(refused.error().message.find("the budget is"), std::string::npos) << refused.error().message;
  EXPECT_NE(refused.error().message.find("never shortened"), std::string::npos);
}

TEST(PromptBuilder, GeneratorMayCutTheCurrentKernelLast) {
  auto context = large_context();
  auto full = build_generator_prompt(context, options_with_budget(1'000'000));
  ASSERT_TRUE(full.ok());
  auto const budget = full->estimated_tokens - estimate_tokens(std::string(std::size_t{40} * 60, 'x')) -
                      estimate_tokens(context.findings) - estimate_tokens(context.errors) -
                      estimate_tokens(context.reference_source) - 200;
  auto built = build_generator_prompt(context, options_with_budget(budget));
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_LE(built->estimated_tokens, budget);
  ASSERT_FALSE(built->cuts.empty());
  EXPECT_EQ(built->cuts.back().section, "current kernel");
}

}  // namespace prompt_builder_test
}  // namespace kopt
