// The built-in proposer's driver on a fake evaluator: every applicable strategy screened with its share of
// the budget, the best one deepened, only the overall best confirmed (docs/strategies.md).
#include <gtest/gtest.h>

#include <fstream>

#include "kopt/propose.hpp"
#include "kopt/store.hpp"
#include "propose/propose_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace propose_and_tune_test {

namespace fs = std::filesystem;

using test::write_file;

std::string const kTask = test::add_task_toml("n");

std::string const& kManifest = test::kTwoStrategyManifest;
using test::knob_kernel;

// by_tile is the better strategy (3x to 4x); TILE=4 is its best point. by_block gives 1.5x or 2x.
FakeResult landscape(std::map<std::string, std::string, std::less<>> const& knobs) {
  double speedup = 1.0;
  if (auto it = knobs.find("BLOCK"); it != knobs.end()) speedup = it->second == "256" ? 2.0 : 1.5;
  if (auto it = knobs.find("TILE"); it != knobs.end()) speedup = it->second == "4" ? 4.0 : 3.0;
  return FakeResult{CandidateStatus::ok, "", {100.0 / speedup}, {100.0}};
}

struct ProposeFixture : ::testing::Test {
  void SetUp() override {
    test::write_two_strategy_library(dir.path() / "lib");
    write_file(dir.path() / "task" / "reference.cu", "\n");
    auto parsed = parse_task(kTask, dir.path() / "task" / "task.toml", dir.path() / "task");
    ASSERT_TRUE(parsed) << parsed.error().message;
    task = *parsed;
    auto loaded = load_strategy_library(dir.path() / "lib");
    ASSERT_TRUE(loaded) << loaded.error().message;
    library = *loaded;
  }
  Store open_store(std::string const& name = "kopt.db") {
    auto store = Store::open(dir.path() / name);
    EXPECT_TRUE(store) << store.error().message;
    return std::move(*store);
  }
  test::TempDir dir;
  TaskSpec task;
  StrategyLibrary library;
};

TEST_F(ProposeFixture, ScreensEveryStrategyDeepensTheBestAndConfirmsItOnce) {
  Store store = open_store();
  FakeCandidateEvaluator fake(landscape);
  ProposeOptions options;
  options.budget = 8;
  options.search = "exhaustive";
  std::vector<std::string> phases;
  auto result = propose_and_tune(library, task, options, fake, store, [&](ProposeProgress const& p) {
    if (phases.empty() || phases.back() != p.strategy + "/" + p.phase)
      phases.push_back(p.strategy + "/" + p.phase);
  });
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->runs.size(), 3u);
  EXPECT_EQ(result->runs[0].strategy, "by_block");
  EXPECT_EQ(result->runs[0].phase, "screen");
  EXPECT_EQ(result->runs[0].result.points, 2u);  // its share: 8 / 2 / 2
  EXPECT_EQ(result->runs[1].strategy, "by_tile");
  EXPECT_EQ(result->runs[1].result.points, 2u);
  EXPECT_EQ(result->runs[2].strategy, "by_tile");
  EXPECT_EQ(result->runs[2].phase, "deepen");
  EXPECT_EQ(result->runs[2].result.points, 4u);      // the whole TILE space, the screen's 2 points replayed
  EXPECT_EQ(result->runs[2].result.from_store, 2u);  // answered from the store, not evaluated again
  ASSERT_TRUE(result->best_strategy);
  EXPECT_EQ(*result->best_strategy, "by_tile");
  ASSERT_TRUE(result->best_screen_speedup);
  EXPECT_NEAR(*result->best_screen_speedup, 4.0, 1e-9);
  ASSERT_TRUE(result->confirmed);
  EXPECT_EQ(result->confirmed->status, CandidateStatus::ok);
  EXPECT_EQ(fake.confirm_calls(), 1u);
  EXPECT_EQ(fake.calls(), 2u + 2u + 2u + 1u);
  EXPECT_EQ(result->best_run, result->runs[2].result.run);
  EXPECT_EQ(phases, (std::vector<std::string>{"by_block/screen", "by_tile/screen", "by_tile/deepen",
                                              "by_tile/confirm"}));
}

TEST_F(ProposeFixture, OneStrategyGetsTheWholeBudget) {
  Store store = open_store();
  FakeCandidateEvaluator fake(landscape);
  ProposeOptions options;
  options.budget = 3;
  options.search = "exhaustive";
  options.only = {"by_tile"};
  auto result = propose_and_tune(library, task, options, fake, store);
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->runs.size(), 1u);
  EXPECT_EQ(result->runs[0].result.points, 3u);
  EXPECT_EQ(fake.confirm_calls(), 1u);
  EXPECT_EQ(result->skipped, std::vector<std::string>{"by_block: not selected"});
}

TEST_F(ProposeFixture, NothingApplicableIsAnErrorThatSaysWhy) {
  Store store = open_store();
  FakeCandidateEvaluator fake(landscape);
  auto other = task;
  other.family = "gemm";
  auto result = propose_and_tune(library, other, ProposeOptions{}, fake, store);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::not_found);
  EXPECT_NE(result.error().message.find("no strategy of the library applies to add (family gemm)"),
            std::string::npos)
      << result.error().message;
  ProposeOptions unknown;
  unknown.only = {"no_such_strategy"};
  result = propose_and_tune(library, task, unknown, fake, store);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("no strategy named 'no_such_strategy'"), std::string::npos);
  EXPECT_EQ(fake.calls(), 0u);
}

// The task written with its inputs first: two bindings of the contract (a=x, b=y or a=y, b=x) fit.
TaskSpec inputs_first(TaskSpec task) {
  auto signature = parse_signature("void add(const float* x, const float* y, float* z, int n)");
  EXPECT_TRUE(signature) << signature.error().message;
  task.signature = *signature;
  for (BufferSpec& buffer : task.buffers) {
    buffer.role = buffer.name == "c" ? Role::output : Role::input;
    buffer.name = buffer.name == "c" ? "z" : buffer.name == "a" ? "x" : "y";
  }
  return task;
}

TEST_F(ProposeFixture, AmbiguousBindingsAreVerifiedInRankOrderBeforeAnyTuning) {
  Store store = open_store();
  FakeCandidateEvaluator fake(landscape);
  // Only the second-ranked binding computes the task (a - b with the operands the other way round, say).
  fake.set_source_verdict([](CandidateInput const& c) -> std::optional<CandidateStatus> {
    if (c.source.find("args=(z, x, y, n)") != std::string::npos) return CandidateStatus::wrong_output;
    return std::nullopt;
  });
  ProposeOptions options;
  options.budget = 4;
  options.search = "exhaustive";
  options.only = {"by_tile"};
  auto result = propose_and_tune(library, inputs_first(task), options, fake, store);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->bindings, std::vector<std::string>{"by_tile: c=z, a=y, b=x, n=n (verified)"});
  ASSERT_EQ(result->runs.size(), 1u);
  EXPECT_EQ(fake.calls(), 2u + result->runs[0].result.points + 1u) << "two probes, the search, one confirm";
}

TEST_F(ProposeFixture, AStrategyNoBindingOfWhichVerifiesIsSkippedWithTheStatuses) {
  Store store = open_store();
  FakeCandidateEvaluator fake(landscape);
  fake.set_source_verdict([](CandidateInput const& c) -> std::optional<CandidateStatus> {
    return c.source.find("TILE") != std::string::npos ? std::optional(CandidateStatus::wrong_output)
                                                      : std::nullopt;
  });
  ProposeOptions options;
  options.budget = 4;
  options.search = "exhaustive";
  auto result = propose_and_tune(library, inputs_first(task), options, fake, store);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->best_strategy, "by_block");
  EXPECT_NE(std::find(result->skipped.begin(), result->skipped.end(),
                      "by_tile: no binding verified (c=z, a=x, b=y, n=n: wrong_output; c=z, a=y, b=x, n=n: "
                      "wrong_output)"),
            result->skipped.end());
  ProposeOptions unverified = options;
  unverified.binding_probes = 0;         // the most plausible binding, used as it is
  Store fresh = open_store("fresh.db");  // the first store holds by_block's verified binding
  auto direct = propose_and_tune(library, inputs_first(task), unverified, fake, fresh);
  ASSERT_TRUE(direct) << direct.error().message;
  EXPECT_EQ(direct->bindings.front(), "by_block: c=z, a=x, b=y, n=n (not verified: no probes)");
}

TEST_F(ProposeFixture, AVerifiedBindingIsStoredAndASecondRunOfTheSameTaskDoesNotVerifyAgain) {
  Store store = open_store();
  FakeCandidateEvaluator fake(landscape);
  int wrong_binding_probes = 0;  // the first-ranked binding is wrong; only a probe evaluates it
  fake.set_source_verdict([&](CandidateInput const& c) -> std::optional<CandidateStatus> {
    if (c.source.find("args=(z, x, y, n)") == std::string::npos) return std::nullopt;
    ++wrong_binding_probes;
    return CandidateStatus::wrong_output;
  });
  ProposeOptions options;
  options.budget = 4;
  options.search = "exhaustive";
  options.only = {"by_tile"};
  TaskSpec const user_task = inputs_first(task);
  ASSERT_TRUE(propose_and_tune(library, user_task, options, fake, store));
  EXPECT_EQ(wrong_binding_probes, 1);
  auto stored = store.verified_bindings(binding_task_key(user_task));
  ASSERT_TRUE(stored) << stored.error().message;
  ASSERT_EQ(stored->size(), 1u);
  EXPECT_EQ(stored->front().strategy, "by_tile");
  EXPECT_EQ(stored->front().binding, "c=z, a=y, b=x, n=n");
  EXPECT_EQ(stored->front().roles, (nlohmann::json{{"a", "y"}, {"b", "x"}, {"c", "z"}, {"n", "n"}}));

  auto again = propose_and_tune(library, user_task, options, fake, store);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(wrong_binding_probes, 1) << "the stored binding is used without probing";
  ASSERT_EQ(again->bindings.size(), 1u);
  EXPECT_EQ(again->bindings.front().rfind("by_tile: c=z, a=y, b=x, n=n (verified ", 0), 0u)
      << again->bindings.front();
  EXPECT_NE(again->bindings.front().find(", from the store)"), std::string::npos) << again->bindings.front();

  // An edited task (another size case) is another key: verified again.
  TaskSpec edited = user_task;
  edited.sizes.front().values["n"] = std::int64_t{4097};
  EXPECT_NE(binding_task_key(edited), binding_task_key(user_task));
  ASSERT_TRUE(propose_and_tune(library, edited, options, fake, store));
  EXPECT_EQ(wrong_binding_probes, 2);
}

}  // namespace propose_and_tune_test
}  // namespace kopt

namespace kopt {
namespace propose_and_tune_test {

// A task without a family verifies each strategy before tuning it: the cheapest to verify goes first.
TEST_F(ProposeFixture, WithoutAFamilyTheCheapestStrategyToVerifyComesFirst) {
  TaskSpec user_task = inputs_first(task);
  user_task.family.clear();
  // by_block's and by_tile's contracts are alike (two plausible bindings each); by_block's template is
  // made the larger one, so by_tile, first in library order only after it, is now cheaper to compile.
  write_file(dir.path() / "lib" / "g" / "by_block.cu",
             knob_kernel("BLOCK", "[128, 256]") + std::string(4096, ' ') + "\n");
  auto reloaded = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(reloaded) << reloaded.error().message;
  auto const order = choose_strategies(*reloaded, user_task, 0);
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0]->name, "by_tile");
  EXPECT_EQ(order[1]->name, "by_block");
  // With a family nothing is verified first: library order.
  EXPECT_EQ(choose_strategies(*reloaded, inputs_first(task), 0).front()->name, "by_block");
}

// A task without a family that gives [strategy_params] verifies first the strategies that read them: a
// strategy ignoring the task's arithmetic verifies only by accident, however cheap it is to probe.
TEST_F(ProposeFixture, WithoutAFamilyTheStrategiesThatReadTheTasksParamsComeFirst) {
  std::string manifest = kManifest;
  manifest.replace(manifest.find("template = \"by_block.cu\""), 0, "params = [\"op\"]\n");
  write_file(dir.path() / "lib" / "g" / "strategies.toml", manifest);
  // by_block is also the larger template: without the task's params it would come second.
  write_file(dir.path() / "lib" / "g" / "by_block.cu",
             knob_kernel("BLOCK", "[128, 256]") + "// {{op}}\n" + std::string(4096, ' ') + "\n");
  auto reloaded = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(reloaded) << reloaded.error().message;
  TaskSpec user_task = inputs_first(task);
  user_task.family.clear();
  user_task.strategy_params["op"] = "a - b";
  auto const order = choose_strategies(*reloaded, user_task, 0);
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0]->name, "by_block");
  EXPECT_EQ(order[1]->name, "by_tile");
  // Without the params by_block does not apply at all.
  user_task.strategy_params.clear();
  auto const without = choose_strategies(*reloaded, user_task, 0);
  ASSERT_EQ(without.size(), 1u);
  EXPECT_EQ(without[0]->name, "by_tile");
}

}  // namespace propose_and_tune_test
}  // namespace kopt
