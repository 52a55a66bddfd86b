// The foreign signatures of tests/propose/foreign/ on the GPU: for each, the library strategies of its
// family are bound to the user's signature through an adapter, the plausible bindings are verified against
// the user's own reference in rank order (probe_bindings, as `kopt optimize` does), and the first that
// verifies must be the binding expect.toml names; for the strategies its `other_variants` lists (another
// variant of the family: an inverse FFT scaled by 1/N for an unscaled task) no binding may verify. Without a
// GPU these report SKIPPED.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "gpu_test_support.hpp"
#include "kopt/detail/toml.hpp"
#include "kopt/optimize.hpp"
#include "kopt/propose.hpp"
#include "propose/binding_probe.hpp"

namespace kopt::testing {
namespace foreign_binding_test {

namespace fs = std::filesystem;

std::vector<fs::path> foreign_cases() {
  std::vector<fs::path> out;
  std::error_code ec;
  for (auto const& entry : fs::directory_iterator(source_path("tests/propose/foreign"), ec)) {
    if (fs::exists(entry.path() / "expect.toml")) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// One evaluator (one worker) for every case.
Result<std::unique_ptr<KoptCandidateEvaluator>>& shared_evaluator() {
  static auto evaluator = KoptCandidateEvaluator::create(gpu_test_options());
  return evaluator;
}

class ForeignBinding : public ::testing::TestWithParam<fs::path> {};

TEST_P(ForeignBinding, TheRightBindingIsTheFirstThatVerifies) {
  auto& created = shared_evaluator();
  if (!created && created.error().code == ErrorCode::no_gpu)
    GTEST_SKIP() << "no CUDA GPU: " << created.error().message;
  ASSERT_TRUE(created) << created.error().message;
  CandidateEvaluator& evaluator = **created;
  fs::path const dir = GetParam();
  auto const expect = toml::parse_file((dir / "expect.toml").string());
  std::string const family = expect["family"].value_or(std::string());
  std::string const right = expect["binding"].value_or(std::string());
  // Strategies of the family that compute another variant of it: none of their bindings may verify.
  std::set<std::string> other_variants;
  if (auto const* names = expect["other_variants"].as_array()) {
    for (auto const& name : *names) other_variants.insert(name.value_or(std::string()));
  }
  auto task = load_task(dir);
  ASSERT_TRUE(task) << task.error().message;
  auto library = load_strategy_library(source_path("strategies"));
  ASSERT_TRUE(library) << library.error().message;
  std::size_t probed = 0;
  for (LibraryStrategy const& strategy : library->strategies) {
    if (std::find(strategy.families.begin(), strategy.families.end(), family) == strategy.families.end())
      continue;
    auto const a = check_applicability(strategy, *task, 90);
    if (!a.applies) continue;
    auto probe = probe_bindings(*library, strategy, *task, a.bindings, 4, 90, {}, evaluator);
    ASSERT_TRUE(probe) << probe.error().message;
    std::string tried;
    for (std::string const& t : probe->tried) tried += "\n  " + t;
    if (other_variants.contains(strategy.name)) {
      EXPECT_FALSE(probe->verified) << strategy.name << " computes another variant, yet "
                                    << probe->verified->describe() << " verified:" << tried;
      continue;
    }
    ASSERT_TRUE(probe->verified) << strategy.name << ": no binding verified:" << tried;
    EXPECT_EQ(probe->verified->describe(), right) << strategy.name << ":" << tried;
    ++probed;
  }
  EXPECT_GT(probed, 0u) << "no strategy of " << family << " applies";
}

std::string case_name(::testing::TestParamInfo<fs::path> const& param) {
  std::string name = param.param.filename().string();
  std::replace_if(
      name.begin(), name.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) == 0; },
      '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Foreign, ForeignBinding, ::testing::ValuesIn(foreign_cases()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ForeignBinding);

}  // namespace foreign_binding_test
}  // namespace kopt::testing
