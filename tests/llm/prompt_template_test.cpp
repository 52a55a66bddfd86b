// Prompt templates: parts, placeholders, conditionals and the errors that name file and line.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "kopt/llm_roles.hpp"

namespace kopt {
namespace prompt_template_test {

namespace fs = std::filesystem;

fs::path const kFile = "roles/test.v1.md";

TEST(PromptTemplate, SplitsSystemAndUserAndFillsPlaceholders) {
  auto tmpl = parse_prompt_template(
      "# a comment with {{anything}}\n[[system]]\nYou write {{dtype}} kernels.\n"
      "[[user]]\nTask {{task_name}}: {{description}}\n",
      kFile);
  ASSERT_TRUE(tmpl.ok()) << tmpl.error().message;
  EXPECT_EQ(tmpl->system_line, 3);
  EXPECT_EQ(tmpl->user_line, 5);
  std::map<std::string, std::string> values = {
      {"dtype", "bf16"}, {"task_name", "softmax"}, {"description", "rows"}};
  auto system = render_prompt_text(tmpl->system, values, kFile, tmpl->system_line);
  ASSERT_TRUE(system.ok()) << system.error().message;
  EXPECT_EQ(*system, "You write bf16 kernels.\n");
  auto user = render_prompt_text(tmpl->user, values, kFile, tmpl->user_line);
  ASSERT_TRUE(user.ok());
  EXPECT_EQ(*user, "Task softmax: rows\n");
}

TEST(PromptTemplate, ConditionalKeepsItsLinesOnlyForANonEmptyValue) {
  std::string const text = "a\n{{#if findings}}\nF: {{findings}}\n{{/if}}\nb\n";
  auto with = render_prompt_text(text, {{"findings", "spills"}}, kFile, 1);
  ASSERT_TRUE(with.ok()) << with.error().message;
  EXPECT_EQ(*with, "a\nF: spills\nb\n");
  auto without = render_prompt_text(text, {{"findings", "  \n"}}, kFile, 1);
  ASSERT_TRUE(without.ok());
  EXPECT_EQ(*without, "a\nb\n");
}

TEST(PromptTemplate, ValuesAreNotScannedForPlaceholders) {
  auto out =
      render_prompt_text("src: {{kernel_source}}", {{"kernel_source", "T x{{1}}; {{bogus}}"}}, kFile, 1);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(*out, "src: T x{{1}}; {{bogus}}");
}

TEST(PromptTemplate, UnknownPlaceholderNamesFileAndLine) {
  auto tmpl = parse_prompt_template("[[system]]\nok\n[[user]]\nline 4\nline 5 {{sizess}} here\n", kFile);
  ASSERT_FALSE(tmpl.ok());
  EXPECT_EQ(tmpl.error().code, ErrorCode::invalid_spec);
  EXPECT_NE(tmpl.error().message.find("roles/test.v1.md:5"), std::string::npos) << tmpl.error().message;
  EXPECT_NE(tmpl.error().message.find("unknown placeholder '{{sizess}}'"), std::string::npos);
  EXPECT_NE(tmpl.error().message.find("sizes"), std::string::npos);  // the list of known names
}

TEST(PromptTemplate, UnclosedPlaceholderNamesFileAndLine) {
  auto tmpl = parse_prompt_template("[[system]]\nfine\nbroken {{dtype\n[[user]]\nx\n", kFile);
  ASSERT_FALSE(tmpl.ok());
  EXPECT_NE(tmpl.error().message.find("roles/test.v1.md:3"), std::string::npos) << tmpl.error().message;
  EXPECT_NE(tmpl.error().message.find("not closed"), std::string::npos);
}

TEST(PromptTemplate, UnbalancedAndNestedConditionalsAreErrors) {
  auto unclosed = parse_prompt_template("[[system]]\ns\n[[user]]\n{{#if errors}}\n{{errors}}\n", kFile);
  ASSERT_FALSE(unclosed.ok());
  EXPECT_NE(unclosed.error().message.find("roles/test.v1.md:4"), std::string::npos)
      << unclosed.error().message;
  auto stray = parse_prompt_template("[[system]]\ns\n[[user]]\nx\n{{/if}}\n", kFile);
  ASSERT_FALSE(stray.ok());
  EXPECT_NE(stray.error().message.find("roles/test.v1.md:5"), std::string::npos) << stray.error().message;
  auto nested = parse_prompt_template(
      "[[system]]\ns\n[[user]]\n{{#if plan}}\n{{#if errors}}\n{{/if}}\n{{/if}}\n", kFile);
  ASSERT_FALSE(nested.ok());
  EXPECT_NE(nested.error().message.find("roles/test.v1.md:5"), std::string::npos) << nested.error().message;
  auto unknown_if = parse_prompt_template("[[system]]\ns\n[[user]]\n{{#if nothing}}\n{{/if}}\n", kFile);
  ASSERT_FALSE(unknown_if.ok());
  EXPECT_NE(unknown_if.error().message.find(":4"), std::string::npos);
}

TEST(PromptTemplate, MissingPartsAreErrors) {
  auto no_user = parse_prompt_template("[[system]]\nonly a system part\n", kFile);
  ASSERT_FALSE(no_user.ok());
  EXPECT_NE(no_user.error().message.find("[[user]]"), std::string::npos);
  auto reversed = parse_prompt_template("[[user]]\nu\n[[system]]\ns\n", kFile);
  ASSERT_FALSE(reversed.ok());
  EXPECT_NE(reversed.error().message.find("roles/test.v1.md:1"), std::string::npos)
      << reversed.error().message;
}

TEST(PromptTemplate, MissingValueAtRenderIsAnError) {
  auto out = render_prompt_text("a\nb {{plan}}\n", {}, kFile, 10);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find("roles/test.v1.md:11"), std::string::npos) << out.error().message;
}

TEST(PromptTemplate, EveryShippedTemplateLoads) {
  fs::path const dir = fs::path(KOPT_SOURCE_DIR) / "prompts";
  for (auto role : {PromptRole::generator, PromptRole::planner, PromptRole::coder, PromptRole::judge}) {
    auto tmpl = load_prompt_template(dir, role);
    ASSERT_TRUE(tmpl.ok()) << tmpl.error().message;
    EXPECT_EQ(tmpl->file.filename(), std::string(to_string(role)) + ".v1.md");
    EXPECT_NE(tmpl->user.find("{{output_format}}"), std::string::npos) << to_string(role);
    EXPECT_NE(tmpl->user.find("{{sizes}}"), std::string::npos) << to_string(role);
    EXPECT_NE(tmpl->user.find("{{tolerance}}"), std::string::npos) << to_string(role);
    EXPECT_NE(tmpl->user.find("{{reference_source}}"), std::string::npos) << to_string(role);
  }
}

TEST(PromptTemplate, MissingTemplateFileIsAnIoError) {
  auto tmpl = load_prompt_template(fs::path(KOPT_BINARY_DIR) / "no-such-prompts", PromptRole::judge);
  ASSERT_FALSE(tmpl.ok());
  EXPECT_EQ(tmpl.error().code, ErrorCode::io_error);
  EXPECT_NE(tmpl.error().message.find("judge.v1.md"), std::string::npos);
}

TEST(PromptsDir, ExplicitThenEnvironmentThenNextToTheExecutable) {
  fs::path const source = fs::path(KOPT_SOURCE_DIR) / "prompts";
  auto explicit_dir = find_prompts_dir(source);
  ASSERT_TRUE(explicit_dir.ok()) << explicit_dir.error().message;
  EXPECT_EQ(*explicit_dir, fs::absolute(source));

  auto bad = find_prompts_dir(fs::path(KOPT_BINARY_DIR));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::not_found);
  EXPECT_NE(bad.error().message.find("generator.v1.md"), std::string::npos);

  ::setenv("KOPT_PROMPTS", KOPT_BINARY_DIR, 1);
  auto env_bad = find_prompts_dir(std::nullopt);
  ::unsetenv("KOPT_PROMPTS");
  ASSERT_FALSE(env_bad.ok());
  EXPECT_NE(env_bad.error().message.find("KOPT_PROMPTS="), std::string::npos);

  // The test binary lives in <source>/<build>/tests: the source tree's prompts/ is three levels up.
  auto found = find_prompts_dir(std::nullopt);
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_TRUE(fs::exists(*found / "coder.v1.md"));
}

}  // namespace prompt_template_test
}  // namespace kopt
