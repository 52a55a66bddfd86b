// Chains (docs/strategies.md, "Chains"): each stage bound as a task of its own, the stages' strategies
// combined into one tunable launcher (knobs renamed per stage, the intermediates its own), nvcc building it
// as the evaluator does, and the proposer screening the combinations on a fake evaluator.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

#include "kopt/propose.hpp"
#include "kopt/store.hpp"
#include "kopt/tuning.hpp"
#include "propose/chain_fixtures.hpp"
#include "propose/propose_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/nvcc.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace chain_test {

namespace fs = std::filesystem;

struct ChainFixture : ::testing::Test {
  void SetUp() override {
    auto loaded = load_strategy_library(fs::path(KOPT_SOURCE_DIR) / "strategies");
    ASSERT_TRUE(loaded) << loaded.error().message;
    library = std::move(*loaded);
  }
  TaskSpec chain_task(std::string const& type = "float", std::string const& edit_from = "",
                      std::string const& edit_to = "") {
    std::string text = test::linear_softmax_chain_toml(type);
    if (!edit_from.empty()) text.replace(text.find(edit_from), edit_from.size(), edit_to);
    test::write_file(dir.path() / "task" / "reference.cu", "\n");
    auto parsed = parse_task(text, dir.path() / "task" / "task.toml", dir.path() / "task");
    EXPECT_TRUE(parsed) << parsed.error().message;
    return parsed ? *parsed : TaskSpec{};
  }
  test::TempDir dir;
  StrategyLibrary library;
};

std::vector<std::string> names(std::vector<Param> const& params) {
  std::vector<std::string> out;
  out.reserve(params.size());
  for (Param const& p : params) out.push_back((p.is_const ? "const " : "") + p.name);
  return out;
}

TEST_F(ChainFixture, EachStageIsATaskOfItsReadsThenItsWritesThenTheScalars) {
  TaskSpec const task = chain_task();
  auto first = chain_stage_task(task, 0);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(names(first->signature.params),
            (std::vector<std::string>{"const x", "const weight", "const bias", "t0", "M", "N", "K"}));
  EXPECT_EQ(first->family, "linear");
  EXPECT_EQ(first->strategy_params.at("op"), "0.5f * v * (1.0f + erff(v * 0.70710678f))");
  ASSERT_NE(first->find_buffer("t0"), nullptr);
  EXPECT_EQ(first->find_buffer("t0")->role, Role::output);
  EXPECT_EQ(first->find_buffer("t0")->length.text(), "M * N");
  EXPECT_FALSE(first->is_chain());
  auto second = chain_stage_task(task, 1);
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(names(second->signature.params), (std::vector<std::string>{"const t0", "out", "M", "N", "K"}));
  EXPECT_EQ(second->find_buffer("t0")->role, Role::input);
  EXPECT_EQ(second->binding.at("N"), "M");
  EXPECT_FALSE(chain_stage_task(task, 2));
}

TEST_F(ChainFixture, TheTaskItselfBindsNoStrategy) {
  TaskSpec const task = chain_task();
  auto const* linear = library.find("linear_register_tiled");
  ASSERT_NE(linear, nullptr);
  auto const a = check_applicability(*linear, task, 90);
  EXPECT_FALSE(a.applies);
  EXPECT_NE(a.reason.find("the task is a chain"), std::string::npos) << a.reason;
  EXPECT_TRUE(choose_strategies(library, task, 90).empty());
}

// Every combination of the stages' strategies, the first choices first; each one tunable candidate whose
// knobs are the stages' own renamed S0_/S1_, and whose entry is the task's.
TEST_F(ChainFixture, TheCombinationsAreCandidatesWithEveryStagesKnobs) {
  TaskSpec const task = chain_task("__nv_bfloat16");
  auto chain = propose_chain(library, task, 90);
  ASSERT_TRUE(chain) << chain.error().message;
  EXPECT_TRUE(chain->skipped.empty());
  ASSERT_GE(chain->proposals.size(), 2U);
  std::vector<std::string> seen;
  for (ChainProposal const& p : chain->proposals) {
    EXPECT_EQ(std::count(seen.begin(), seen.end(), p.name), 0) << p.name;
    seen.push_back(p.name);
    EXPECT_NE(p.name.find("linear_"), std::string::npos) << p.name;
    EXPECT_NE(p.name.find(" + softmax_"), std::string::npos) << p.name;
    EXPECT_EQ(detect_mode(p.source, "forward"), CandidateMode::launcher) << p.name;
    auto space = TuningSpace::parse(p.source);
    ASSERT_TRUE(space) << space.error().message;
    bool s0 = false;
    bool s1 = false;
    for (Knob const& k : space->knobs()) {
      s0 = s0 || k.name.starts_with("S0_");
      s1 = s1 || k.name.starts_with("S1_");
      EXPECT_TRUE(k.name.starts_with("S0_") || k.name.starts_with("S1_")) << k.name;
    }
    EXPECT_TRUE(s0 && s1) << p.name;
    auto enumeration = space->enumerate(tuning_rules_for(task));
    ASSERT_TRUE(enumeration) << enumeration.error().message;
    EXPECT_FALSE(enumeration->valid.empty()) << p.name;
    EXPECT_NE(p.source.find("static void* kopt_chain_t0"), std::string::npos);
  }
  EXPECT_LE(chain->proposals.size(), 8U);
  // By the sum of the stages' ranks: each stage's second choice comes before any combination of two second
  // choices (here the BF16 linear's tensor-core strategy among the first three).
  auto const tensor_core =
      std::find_if(chain->proposals.begin(), chain->proposals.end(),
                   [](ChainProposal const& p) { return p.name.starts_with("linear_tensor_core_mma + "); });
  ASSERT_NE(tensor_core, chain->proposals.end());
  EXPECT_LT(tensor_core - chain->proposals.begin(), 3);
  auto limited = propose_chain(library, task, 90, {}, 1);
  ASSERT_TRUE(limited);
  ASSERT_EQ(limited->proposals.size(), 1U);
  EXPECT_EQ(limited->proposals[0].name, chain->proposals[0].name);
  auto only = propose_chain(library, task, 90, {"linear_register_tiled", "softmax_block_per_row"});
  ASSERT_TRUE(only);
  ASSERT_EQ(only->proposals.size(), 1U);
  EXPECT_EQ(only->proposals[0].name, "linear_register_tiled + softmax_block_per_row");
}

TEST_F(ChainFixture, AStageWithoutAStrategySaysWhich) {
  TaskSpec const task = chain_task("float", "family = \"row_softmax\"", "family = \"no_such_family\"");
  auto chain = propose_chain(library, task, 90);
  ASSERT_TRUE(chain) << chain.error().message;
  EXPECT_TRUE(chain->proposals.empty());
  ASSERT_EQ(chain->skipped.size(), 1U);
  EXPECT_NE(chain->skipped[0].find("stage 1 (no_such_family)"), std::string::npos) << chain->skipped[0];
}

// The first and last valid configurations of the first combination, FP32 and BF16, built by nvcc as the
// evaluator builds a launcher.
TEST_F(ChainFixture, TheChainBuildsAsOneLauncher) {
  if (!test::nvcc_path()) GTEST_SKIP() << "nvcc not found";
  for (std::string const type : {"float", "__nv_bfloat16"}) {
    TaskSpec const task = chain_task(type);
    auto chain = propose_chain(library, task, 90, {}, 1);
    ASSERT_TRUE(chain) << chain.error().message;
    ASSERT_EQ(chain->proposals.size(), 1U);
    for (bool const last : {false, true}) {
      auto input = test::first_configuration(task, chain->proposals[0].source, last);
      ASSERT_TRUE(input) << input.error().message;
      auto compiled = test::compile_as_evaluated(task, "chain", input->source, input->flags);
      ASSERT_TRUE(compiled) << compiled.error().message;
      EXPECT_TRUE(compiled->ok) << type << "\n" << compiled->diagnostics;
      EXPECT_EQ(compiled->artifact.path.extension(), ".so");
    }
  }
}

// The proposer screens each combination as a strategy of its own and deepens the best.
TEST_F(ChainFixture, TheProposerScreensTheCombinations) {
  TaskSpec const task = chain_task("__nv_bfloat16");
  FakeCandidateEvaluator fake([](std::map<std::string, std::string, std::less<>> const&) {
    return FakeResult{CandidateStatus::ok, "", {50.0, 50.0}, {100.0, 100.0}};
  });
  auto store = Store::open(dir.path() / "kopt.db");
  ASSERT_TRUE(store) << store.error().message;
  ProposeOptions options;
  options.budget = 12;
  options.arch_sm = 90;
  options.search = "random";
  options.size_dispatch = false;
  auto result = propose_and_tune(library, task, options, fake, *store);
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_GE(result->runs.size(), 2U);
  for (StrategyRun const& run : result->runs) EXPECT_NE(run.strategy.find(" + "), std::string::npos);
  ASSERT_TRUE(result->best_strategy);
  EXPECT_NE(result->best_strategy->find(" + softmax_"), std::string::npos);
  EXPECT_TRUE(result->bindings.empty());
}

}  // namespace chain_test
}  // namespace kopt
