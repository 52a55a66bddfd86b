#include <gtest/gtest.h>

#include "kopt/optimize_space.hpp"
#include "optimize/optimize_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"

namespace kopt {
namespace tuning_search_space_test {

struct SpaceFixture : ::testing::Test {
  void SetUp() override {
    auto loaded = load_task(test::kTaskDir);
    ASSERT_TRUE(loaded) << loaded.error().message;
    task = *loaded;
    source = test::read_text(test::kTunable);
    auto parsed = TuningSpace::parse(source);
    ASSERT_TRUE(parsed) << parsed.error().message;
    space = *parsed;
    auto launch = apply_launch_annotation(source, *task.launch);
    ASSERT_TRUE(launch);
    rules = tuning_rules_for(task, *launch);
  }
  TaskSpec task;
  std::string source;
  TuningSpace space;
  TuningRules rules;
};

TEST_F(SpaceFixture, DimensionsValidityAndActionsFollowTheTuningSpace) {
  TuningSearchSpace search(space, rules);
  auto const dims = search.dimensions();
  ASSERT_EQ(dims.size(), 3u);
  EXPECT_EQ(dims[0].name, "BLOCK");
  EXPECT_EQ(dims[0].size, 5);
  EXPECT_EQ(dims[1].size, 3);
  EXPECT_EQ(dims[2].size, 4);
  EXPECT_TRUE(search.is_valid({0, 0, 0}));
  EXPECT_FALSE(search.is_valid({0, 2, 3}));  // VEC=4 * ITEMS=8 > 16
  auto const actions = search.actions({0, 2, 2});
  std::vector<std::string> names;
  names.reserve(actions.size());
  for (auto const& action : actions) names.push_back(action.name);
  // ITEMS:+1 leads to VEC*ITEMS=32: pruned; BLOCK:-1 and VEC:+1 are out of range.
  EXPECT_EQ(names, (std::vector<std::string>{"BLOCK:+1", "VEC:-1", "ITEMS:-1"}));
}

TEST_F(SpaceFixture, StartPointIsTheSourceDefaults) {
  auto defaults = default_configuration(space, source);
  ASSERT_TRUE(defaults);
  EXPECT_EQ(space.config_key(*defaults), "BLOCK=256;ITEMS=2;VEC=4");
  TuningSearchSpace search(space, rules, defaults);
  EXPECT_EQ(search.start_point(), (Point{2, 2, 1}));
  EXPECT_FALSE(TuningSearchSpace(space, rules).start_point().has_value());
}

TEST_F(SpaceFixture, DefaultsPickTheNearestListedValueAndNeedAtLeastOne) {
  std::string const text =
      "// kopt:knob BLOCK = [64, 256, 1024]\n// kopt:knob U = [1, 2]\n#ifndef BLOCK\n#define BLOCK "
      "200\n#endif\n";
  auto parsed = TuningSpace::parse(text);
  ASSERT_TRUE(parsed) << parsed.error().message;
  auto config = default_configuration(*parsed, text);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->indices, (std::vector<std::size_t>{1, 0}));
  EXPECT_FALSE(default_configuration(*parsed, "// kopt:knob BLOCK = [64]\n#define BLOCK 64\n"));
}

TEST_F(SpaceFixture, LearnedResourceFailuresPruneLargerValues) {
  TuningSearchSpace search(space, rules);
  Configuration const failed = TuningSearchSpace::to_configuration({3, 0, 0});  // BLOCK=512
  EXPECT_FALSE(search.learn(failed, CandidateStatus::wrong_output, "mismatch"));
  EXPECT_TRUE(search.is_valid({4, 0, 0}));
  EXPECT_TRUE(search.learn(failed, CandidateStatus::launch_error, "too many resources requested for launch"));
  EXPECT_FALSE(search.is_valid({3, 0, 0}));
  EXPECT_FALSE(search.is_valid({4, 0, 0}));  // BLOCK=1024: at least as hungry
  EXPECT_TRUE(search.is_valid({2, 0, 0}));
  EXPECT_TRUE(search.is_valid({4, 1, 0}));  // differs in two knobs: not generalised
  EXPECT_TRUE(search.why_invalid({4, 0, 0}).has_value());
}

TEST_F(SpaceFixture, MaterialisedSourceDefinesKnobsAndFixesTheLaunchLine) {
  Configuration const config = TuningSearchSpace::to_configuration({1, 1, 3});
  auto candidate = materialise(space, config, source, task, {"-lineinfo"});
  ASSERT_TRUE(candidate) << candidate.error().message;
  EXPECT_EQ(candidate->name, "BLOCK=128;ITEMS=8;VEC=2");
  EXPECT_NE(candidate->source.find("#define BLOCK 128\n#define VEC 2\n#define ITEMS 8\n#line 1\n"),
            std::string::npos);
  EXPECT_NE(candidate->source.find("kopt:launch grid=(ceil_div(n, 128 * 2 * 8)) block=(128)"),
            std::string::npos);
  EXPECT_EQ(candidate->flags, (std::vector<std::string>{"-lineinfo"}));
  EXPECT_EQ(candidate->knobs.at("ITEMS"), "8");
  auto const target = FakeCandidateEvaluator::fake_target();
  auto again = materialise(space, config, source, task, {"-lineinfo"});
  ASSERT_TRUE(again);
  EXPECT_EQ(content_key(*candidate, target), content_key(*again, target));
  auto other =
      materialise(space, TuningSearchSpace::to_configuration({1, 1, 2}), source, task, {"-lineinfo"});
  ASSERT_TRUE(other);
  EXPECT_NE(content_key(*candidate, target), content_key(*other, target));
  EvaluationTarget other_toolkit = target;
  other_toolkit.toolkit = "13.1";
  EXPECT_NE(content_key(*candidate, target), content_key(*candidate, other_toolkit));
  EXPECT_EQ(content_key(*candidate, target).value().size(), 32u);
}

}  // namespace tuning_search_space_test
}  // namespace kopt
