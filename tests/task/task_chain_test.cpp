// Chains in task.toml (docs/task-format.md, "Chains"): [[intermediates]] and [[stages]] read as written, and
// every way the stages' data flow can be wrong named with the field and what was expected.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "../propose/chain_fixtures.hpp"
#include "kopt/task.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace task_chain_test {

// A task folder with the reference the fixture names (not built by these tests).
Result<TaskSpec> parse(std::string const& text) {
  static test::TempDir const dir;
  std::ofstream(dir.path() / "reference.cu") << "\n";
  return parse_task(text, dir.path() / "task.toml", dir.path());
}

using Edits = std::vector<std::pair<std::string, std::string>>;

// The fixture with each `find` replaced by its `replace` (which must be there), in order; a `replace` of
// "<cut>" cuts the text there.
std::string edited(Edits const& edits) {
  std::string text = test::linear_softmax_chain_toml();
  for (auto const& [find, replace] : edits) {
    auto const at = text.find(find);
    EXPECT_NE(at, std::string::npos) << find;
    if (at == std::string::npos) continue;
    if (replace == "<cut>") {
      text.resize(at);
    } else {
      text.replace(at, find.size(), replace);
    }
  }
  return text;
}

TEST(TaskChain, StagesAndIntermediatesAreReadAsWritten) {
  auto task = parse(test::linear_softmax_chain_toml("__nv_bfloat16"));
  ASSERT_TRUE(task) << task.error().message;
  EXPECT_TRUE(task->is_chain());
  EXPECT_TRUE(task->family.empty());
  ASSERT_EQ(task->intermediates.size(), 1U);
  EXPECT_EQ(task->intermediates[0].name, "t0");
  EXPECT_EQ(task->intermediates[0].dtype, DType::bf16);  // the first output's, when not given
  EXPECT_EQ(task->intermediates[0].length.text(), "M * N");
  ASSERT_EQ(task->stages.size(), 2U);
  EXPECT_EQ(task->stages[0].family, "linear");
  EXPECT_EQ(task->stages[0].reads, (std::vector<std::string>{"x", "weight", "bias"}));
  EXPECT_EQ(task->stages[0].writes, (std::vector<std::string>{"t0"}));
  EXPECT_EQ(task->stages[0].strategy_params.at("op"), "0.5f * v * (1.0f + erff(v * 0.70710678f))");
  EXPECT_EQ(task->stages[1].binding.at("C"), "N");
  EXPECT_EQ(task->stages[1].writes, (std::vector<std::string>{"out"}));
}

TEST(TaskChain, AStagesRoleMayTakeANumber) {
  auto task = parse(
      edited({{"binding = { N = \"M\", C = \"N\" }", "binding = { N = \"M\", C = \"N\", eps = 1e-05 }"}}));
  ASSERT_TRUE(task) << task.error().message;
  EXPECT_EQ(task->stages[1].binding.at("eps"), "1e-05");
}

TEST(TaskChain, AnIntermediatesDtypeMayBeGiven) {
  auto task =
      parse(edited({{"length = \"M * N\"\n[[stages]]", "length = \"M * N\"\ndtype = \"f32\"\n[[stages]]"}}));
  ASSERT_TRUE(task) << task.error().message;
  EXPECT_EQ(task->intermediates[0].dtype, DType::f32);
}

struct BadChain {
  std::string label;
  Edits edits;
  std::string field;
  std::string what;
};

std::ostream& operator<<(std::ostream& out, BadChain const& bad) {
  return out << bad.label;
}

class MalformedChain : public ::testing::TestWithParam<BadChain> {};

TEST_P(MalformedChain, NamesTheFieldAndWhatIsWrong) {
  auto const& bad = GetParam();
  auto task = parse(edited(bad.edits));
  ASSERT_FALSE(task) << bad.label;
  EXPECT_EQ(task.error().code, ErrorCode::invalid_spec);
  EXPECT_NE(task.error().message.find(bad.field), std::string::npos) << task.error().message;
  EXPECT_NE(task.error().message.find(bad.what), std::string::npos) << task.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    TaskChain, MalformedChain,
    ::testing::Values(
        BadChain{"TopLevelFamily",
                 {{"[entry]", "family = \"linear\"\n[entry]"}},
                 "family",
                 "given with [[stages]]"},
        BadChain{"UnknownBuffer",
                 {{"reads = [\"t0\"]", "reads = [\"t9\"]"}},
                 "stages[1].reads[0]",
                 "'t9' is unknown"},
        BadChain{"NamedTwice",
                 {{"reads = [\"t0\"]\nwrites = [\"out\"]", "reads = [\"t0\"]\nwrites = [\"t0\"]"}},
                 "stages[1].writes[0]",
                 "named twice"},
        BadChain{"InputWritten",
                 {{"writes = [\"out\"]", "writes = [\"out\", \"x\"]"}},
                 "stages[1].writes",
                 "which is the launcher's input"},
        BadChain{"ReadBeforeWritten",
                 {{"[[stages]]", "[[intermediates]]\nname = \"t1\"\nlength = \"M\"\n[[stages]]"},
                  {"reads = [\"x\", \"weight\", \"bias\"]", "reads = [\"x\", \"weight\", \"bias\", \"t1\"]"},
                  {"writes = [\"out\"]", "writes = [\"out\", \"t1\"]"}},
                 "stages[0].reads",
                 "reads 't1' before any stage writes it"},
        BadChain{"OutputNeverWritten",
                 {{"[[stages]]", "[[intermediates]]\nname = \"t1\"\nlength = \"M * N\"\n[[stages]]"},
                  {"writes = [\"out\"]", "writes = [\"t1\"]"}},
                 "stages",
                 "no stage writes the launcher's 'out'"},
        BadChain{"InputNeverRead",
                 {{"reads = [\"x\", \"weight\", \"bias\"]", "reads = [\"x\", \"weight\"]"}},
                 "stages",
                 "no stage reads the launcher's 'bias'"},
        BadChain{"IntermediateNamedLikeAParameter",
                 {{"name = \"t0\"", "name = \"x\""}},
                 "intermediates[0].name",
                 "names a launcher parameter"},
        BadChain{"IntermediateLengthOverAPointer",
                 {{"length = \"M * N\"\n[[stages]]", "length = \"M * x\"\n[[stages]]"}},
                 "intermediates[0].length",
                 "a pointer parameter"},
        BadChain{"BindingToAnotherStagesBuffer",
                 {{"binding = { N = \"M\", C = \"N\" }", "binding = { N = \"M\", C = \"x\" }"}},
                 "stages[1].binding.C",
                 "not a value a stage's role"},
        BadChain{"StageWithoutFamily", {{"family = \"row_softmax\"\n", ""}}, "stages[1].family", "missing"},
        BadChain{"IntermediatesWithoutStages",
                 {{"[[stages]]", "<cut>"}},
                 "intermediates",
                 "given without [[stages]]"}));

}  // namespace task_chain_test
}  // namespace kopt
