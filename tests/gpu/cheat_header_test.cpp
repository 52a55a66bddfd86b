// Checks of the cheat suite itself that need no GPU: every cheat's header parses, names a task that
// loads and a mode that matches its source, and together the cheats expect every verdict kopt has.
#include "cheat_header.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "gpu_test_support.hpp"
#include "kopt/compile.hpp"
#include "kopt/task.hpp"

namespace kopt::testing {
namespace cheat_header_test {

std::vector<std::filesystem::path> cheat_files() {
  return list_cheat_files(source_path("tests/gpu/cheats"));
}

TEST(CheatSuiteTest, HasCheatFiles) {
  EXPECT_GE(cheat_files().size(), 21u);
}

TEST(CheatSuiteTest, EveryHeaderParsesAndNamesALoadableTask) {
  for (auto const& file : cheat_files()) {
    SCOPED_TRACE(file.string());
    auto header = read_cheat_header(file);
    ASSERT_TRUE(header.ok()) << header.error().message;
    EXPECT_FALSE(header->defeats.empty());
    auto task = load_task(source_path(header->task));
    ASSERT_TRUE(task.ok()) << task.error().message;
    if (header->mode == CandidateMode::kernel) {
      EXPECT_TRUE(task->launch.has_value()) << "kernel-mode cheat on a task without [launch]";
    }
  }
}

// The declared mode is the one kopt would detect, except where the cheat is about a missing or
// unparsable entry point (compile_error).
TEST(CheatSuiteTest, DeclaredModeMatchesTheSource) {
  for (auto const& file : cheat_files()) {
    SCOPED_TRACE(file.string());
    auto header = read_cheat_header(file);
    ASSERT_TRUE(header.ok()) << header.error().message;
    if (header->expect == CandidateStatus::compile_error) continue;
    auto task = load_task(source_path(header->task));
    ASSERT_TRUE(task.ok()) << task.error().message;
    std::string entry = header->mode == CandidateMode::kernel && task->launch && !task->launch->kernel.empty()
                            ? task->launch->kernel
                            : task->signature.function;
    // A `// kopt:launch ... kernel=NAME` line names the candidate's own kernel, as kopt reads it.
    auto const annotated = apply_launch_annotation(read_text(file), LaunchSpec{});
    if (header->mode == CandidateMode::kernel && annotated && !annotated->kernel.empty())
      entry = annotated->kernel;
    auto detected = detect_mode(read_text(file), entry);
    ASSERT_TRUE(detected.has_value()) << "no entry '" << entry << "' detected";
    EXPECT_EQ(to_string(*detected), to_string(header->mode));
  }
}

TEST(CheatSuiteTest, CoversEveryVerdict) {
  std::set<std::string> expected;
  for (auto const& file : cheat_files()) {
    auto header = read_cheat_header(file);
    ASSERT_TRUE(header.ok()) << header.error().message;
    expected.insert(std::string(to_string(header->expect)));
    if (header->expect_with_sanitize) expected.insert(std::string(to_string(*header->expect_with_sanitize)));
  }
  for (auto status : {CandidateStatus::ok, CandidateStatus::compile_error, CandidateStatus::load_error,
                      CandidateStatus::launch_error, CandidateStatus::runtime_error, CandidateStatus::timeout,
                      CandidateStatus::wrong_output, CandidateStatus::nondeterministic,
                      CandidateStatus::input_mutated, CandidateStatus::out_of_bounds_write,
                      CandidateStatus::implausibly_fast, CandidateStatus::sandbox_violation}) {
    EXPECT_EQ(expected.count(std::string(to_string(status))), 1u) << "no cheat expects " << to_string(status);
  }
}

constexpr char const* kGoodHeader =
    "// expect: wrong_output\n"
    "// defeats: one distribution\n"
    "// mode: kernel\n"
    "// task: tests/gpu/tasks/relu\n"
    "\n"
    "// note: not part of the header\n";

TEST(CheatHeaderTest, ParsesTheFourKeysInOrder) {
  auto header = parse_cheat_header(kGoodHeader, "x.cu");
  ASSERT_TRUE(header.ok()) << header.error().message;
  EXPECT_EQ(header->expect, CandidateStatus::wrong_output);
  EXPECT_EQ(header->defeats, "one distribution");
  EXPECT_EQ(header->mode, CandidateMode::kernel);
  EXPECT_EQ(header->task, std::filesystem::path("tests/gpu/tasks/relu"));
  EXPECT_FALSE(header->expect_with_sanitize.has_value());
}

TEST(CheatHeaderTest, ParsesTheOptionalSanitizeVerdict) {
  auto header = parse_cheat_header(
      "// expect: ok\n// defeats: guards\n// mode: launcher\n// task: examples/vector_add\n"
      "// expect-with-sanitize: runtime_error\nint x;\n",
      "x.cu");
  ASSERT_TRUE(header.ok()) << header.error().message;
  EXPECT_EQ(header->mode, CandidateMode::launcher);
  ASSERT_TRUE(header->expect_with_sanitize.has_value());
  EXPECT_EQ(*header->expect_with_sanitize, CandidateStatus::runtime_error);
}

struct BadHeader {
  const char* text;
  const char* message_part;
};

TEST(CheatHeaderTest, RejectsMalformedHeadersNamingTheProblem) {
  BadHeader const cases[] = {
      {"", "line 1 must be `// expect: ...`"},
      {"// defeats: x\n// expect: ok\n// mode: kernel\n// task: t\n", "line 1 must be `// expect: ...`"},
      {"// expect: ok\n// defeats: x\n// mode: kernel\n", "line 4 must be `// task: ...`"},
      {"// expect: wrong\n// defeats: x\n// mode: kernel\n// task: t\n", "unknown status 'wrong'"},
      {"// expect: ok\n// defeats: x\n// mode: device\n// task: t\n", "expected kernel or launcher"},
      {"// expect: ok\n// defeats: x\n// mode: kernel\n// task: /abs\n", "relative to the repository root"},
      {"// expect: ok\n// defeats: x\n// mode: kernel\n// task: t\n// extra: y\n", "unexpected key 'extra'"},
      {"// expect: ok\n// defeats: x\n// mode: kernel\n// task: t\n// expect-with-sanitize: nope\n",
       "unknown status 'nope'"},
  };
  for (auto const& bad : cases) {
    SCOPED_TRACE(bad.text);
    auto header = parse_cheat_header(bad.text, "bad.cu");
    ASSERT_FALSE(header.ok());
    EXPECT_NE(header.error().message.find("bad.cu"), std::string::npos) << header.error().message;
    EXPECT_NE(header.error().message.find(bad.message_part), std::string::npos) << header.error().message;
  }
}

}  // namespace cheat_header_test
}  // namespace kopt::testing
