#include "kopt/optimize.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <set>
#include <thread>

#include "kopt/store.hpp"
#include "optimize/optimize_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace optimize_test {

struct OptimizeFixture : ::testing::Test {
  void SetUp() override {
    auto loaded = load_task(test::kTaskDir);
    ASSERT_TRUE(loaded) << loaded.error().message;
    task = *loaded;
    source = test::read_text(test::kTunable);
  }
  Store open_store(std::string const& name = "kopt.db") {
    auto store = Store::open(dir.path() / name);
    EXPECT_TRUE(store) << store.error().message;
    return std::move(*store);
  }
  OptimizeOptions options(std::string strategy, std::size_t budget, std::uint64_t seed = 7) {
    OptimizeOptions o;
    o.strategy = std::move(strategy);
    o.max_evaluations = budget;
    o.seed = seed;
    o.source_path = test::kTunable;
    return o;
  }
  test::TempDir dir;
  TaskSpec task;
  std::string source;
};

TEST_F(OptimizeFixture, ExhaustiveFindsTheBestAndRecordsEveryCandidate) {
  Store store = open_store();
  FakeCandidateEvaluator fake(test::landscape);
  std::size_t progress_calls = 0;
  auto result = optimize(task, source, options("exhaustive", 100), fake, store,
                         [&](OptimizeProgress const&) { ++progress_calls; });
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->points, 55u);  // every valid configuration
  EXPECT_EQ(result->stop_reason, "exhausted");
  EXPECT_EQ(result->evaluated, 56u);  // 55 screen + 1 confirm
  EXPECT_EQ(fake.confirm_calls(), 1u);
  EXPECT_EQ(result->from_store, 0u);
  EXPECT_EQ(progress_calls, 56u);  // one per point, one for the confirm phase
  EXPECT_EQ(result->incumbent_config, "BLOCK=256;ITEMS=2;VEC=4");
  ASSERT_TRUE(result->confirmed);
  EXPECT_EQ(result->confirmed->status, CandidateStatus::ok);
  ASSERT_TRUE(result->incumbent_screen_speedup);
  EXPECT_NEAR(*result->incumbent_screen_speedup, 3.0 + 0.001 * (256 % 7), 1e-9);

  auto history = store.load_run(result->run);
  ASSERT_TRUE(history) << history.error().message;
  EXPECT_EQ(history->run.status, RunStatus::finished);
  EXPECT_EQ(history->run.run.task_name, "vector_add");
  EXPECT_EQ(history->run.run.seed, 7u);
  EXPECT_EQ(history->run.run.budget["evaluations"], 100);
  EXPECT_EQ(history->candidates.size(), 55u);
  EXPECT_EQ(history->evaluations.size(), 56u);
  std::size_t confirm = 0, wrong = 0;
  for (auto const& e : history->evaluations) {
    confirm += e.evaluation.tier == "confirm";
    wrong += e.evaluation.status == CandidateStatus::wrong_output;
    EXPECT_EQ(e.evaluation.device_uuid, "fake-uuid");
    EXPECT_EQ(e.evaluation.toolkit, "fake toolkit");
  }
  EXPECT_EQ(confirm, 1u);
  EXPECT_EQ(wrong, 2u);  // BLOCK=64, ITEMS=8 with VEC=1 and VEC=2
  for (auto const& c : history->candidates) {
    EXPECT_EQ(c.candidate.mode, "kernel");
    EXPECT_NE(c.candidate.source.find("#define BLOCK " + c.candidate.knobs["BLOCK"].get<std::string>()),
              std::string::npos);
  }
  auto best = store.best_candidate(result->run, std::string_view("confirm"));
  ASSERT_TRUE(best && *best);
  EXPECT_EQ((*best)->candidate.id, *result->incumbent);
}

TEST_F(OptimizeFixture, MctsRecordsParentsAndActions) {
  Store store = open_store();
  FakeCandidateEvaluator fake(test::landscape);
  auto result = optimize(task, source, options("mcts", 20), fake, store);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->points, 20u);
  auto history = store.load_run(result->run);
  ASSERT_TRUE(history);
  // The first point is the source's defaults, a seed; MCTS then derives points by knob moves.
  EXPECT_EQ(history->candidates.front().candidate.knobs["BLOCK"], "256");
  EXPECT_FALSE(history->candidates.front().candidate.parent.has_value());
  std::size_t derived = 0;
  for (auto const& c : history->candidates) {
    if (c.candidate.parent) {
      ++derived;
      EXPECT_NE(c.candidate.action.find(':'), std::string::npos) << c.candidate.action;
    }
  }
  EXPECT_GT(derived, 0u);
}

TEST_F(OptimizeFixture, BudgetLimitsUniqueEvaluations) {
  Store store = open_store();
  FakeCandidateEvaluator fake(test::landscape);
  auto result = optimize(task, source, options("random", 7), fake, store);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->points, 7u);
  EXPECT_EQ(result->stop_reason, "evaluations");
  EXPECT_EQ(fake.calls(), 8u);  // 7 + the confirm
  OptimizeOptions zero = options("random", 0);
  auto refused = optimize(task, source, zero, fake, store);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::invalid_argument);
  auto unknown = optimize(task, source, options("annealing", 5), fake, store);
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("annealing"), std::string::npos);
}

TEST_F(OptimizeFixture, SecondRunOfTheSameSourceEvaluatesNothingNew) {
  Store store = open_store();
  FakeCandidateEvaluator first(test::landscape);
  auto a = optimize(task, source, options("mcts", 25), first, store);
  ASSERT_TRUE(a) << a.error().message;
  FakeCandidateEvaluator second(test::landscape);
  OptimizeOptions no_confirm = options("mcts", 25);
  no_confirm.confirm = false;
  // With the first run's search memory MCTS would order its expansions differently (the prior), and
  // visit points the first run did not; without it, it proposes exactly the same points.
  no_confirm.search_memory = false;
  auto b = optimize(task, source, no_confirm, second, store);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(second.calls(), 0u);
  EXPECT_EQ(b->from_store, 25u);
  EXPECT_EQ(b->incumbent_config, a->incumbent_config);
  EXPECT_NE(a->run, b->run);
  auto history = store.load_run(b->run);  // the new run holds its candidates too (for export)
  ASSERT_TRUE(history);
  EXPECT_EQ(history->candidates.size(), 25u);
}

// The batched strategies (exhaustive, random) ask the store before evaluating the point they need, as the
// one-at-a-time ones do (found by the built-in proposer: its deepening run re-evaluated the screen's points).
TEST_F(OptimizeFixture, BatchedStrategiesAnswerRepeatsFromTheStore) {
  Store store = open_store();
  FakeCandidateEvaluator first(test::landscape);
  OptimizeOptions o = options("exhaustive", 10);
  o.confirm = false;
  auto a = optimize(task, source, o, first, store);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(first.calls(), 10u);
  FakeCandidateEvaluator second(test::landscape);
  o.max_evaluations = 20;
  auto b = optimize(task, source, o, second, store);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->points, 20u);
  EXPECT_EQ(b->from_store, 10u);
  EXPECT_EQ(second.calls(), 10u);  // only the 10 new points
}

TEST_F(OptimizeFixture, ResourceFailuresAreLearnedAndNotRetried) {
  Store store = open_store();
  std::vector<std::string> failed;  // "VEC,ITEMS" of each BLOCK=512 failure
  std::size_t hungry_calls = 0;
  std::size_t dominated_calls = 0;
  FakeCandidateEvaluator fake([&](auto const& knobs) {
    std::int64_t const block = test::knob(knobs, "BLOCK");
    std::string const rest = knobs.at("VEC") + "," + knobs.at("ITEMS");
    if (block == 1024 && std::find(failed.begin(), failed.end(), rest) != failed.end()) ++dominated_calls;
    if (block >= 512) {
      ++hungry_calls;
      if (block == 512) failed.push_back(rest);
      return FakeResult{CandidateStatus::launch_error, "too many resources requested for launch", {}, {}};
    }
    return test::landscape(knobs);
  });
  auto result = optimize(task, source, options("exhaustive", 100), fake, store);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->learned_invalid, hungry_calls);  // every resource failure is learned
  EXPECT_GT(hungry_calls, 0u);
  EXPECT_LT(hungry_calls, 22u);    // 22 valid configurations have BLOCK >= 512: some were never tried
  EXPECT_EQ(dominated_calls, 0u);  // BLOCK=1024 never tried where the same VEC, ITEMS failed at 512
  // Exhaustive compiles ahead in batches, so a failure can prune a point of its own batch that was
  // already evaluated: the run holds every evaluation made, and the search's points are among them.
  auto history = store.load_run(result->run);
  ASSERT_TRUE(history);
  EXPECT_EQ(history->evaluations.size(), fake.calls());
  EXPECT_EQ(result->evaluated, fake.calls());
  std::size_t small = 0;  // not a resource failure: the BLOCK <= 256 configurations
  for (auto const& evaluation : history->evaluations)
    small += evaluation.evaluation.tier == "screen" &&
             evaluation.evaluation.status != CandidateStatus::launch_error;
  EXPECT_EQ(small, 33u);  // the 33 valid configurations with BLOCK <= 256, each once
  EXPECT_LE(result->points, 33u + hungry_calls);
  EXPECT_GE(result->points, 33u);
  EXPECT_EQ(result->incumbent_config, "BLOCK=256;ITEMS=2;VEC=4");
}

TEST_F(OptimizeFixture, GreedyFollowsLearnedPruningWithoutProposingPrunedPoints) {
  Store store = open_store();
  FakeCandidateEvaluator fake([](auto const& knobs) {
    if (test::knob(knobs, "BLOCK") >= 512 ||
        (test::knob(knobs, "VEC") == 4 && test::knob(knobs, "ITEMS") == 4))
      return FakeResult{
          CandidateStatus::compile_error, "ptxas error   : Entry function uses too much shared data", {}, {}};
    return test::landscape(knobs);
  });
  auto result = optimize(task, source, options("greedy", 40), fake, store);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_GT(result->learned_invalid, 0u);
  EXPECT_EQ(result->incumbent_config, "BLOCK=256;ITEMS=2;VEC=4");
}

TEST_F(OptimizeFixture, ResumeAfterSigkillReachesTheSameBest) {
  constexpr std::size_t kBudget = 40;
  // The uninterrupted run, in its own store.
  Store reference_store = open_store("reference.db");
  FakeCandidateEvaluator reference_fake(test::landscape);
  auto reference = optimize(task, source, options("mcts", kBudget, 11), reference_fake, reference_store);
  ASSERT_TRUE(reference) << reference.error().message;

  std::filesystem::path const killed_path = dir.path() / "killed.db";
  pid_t const child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto store = Store::open(killed_path);
    if (!store) ::_exit(2);
    FakeCandidateEvaluator slow([](auto const& knobs) {
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
      return test::landscape(knobs);
    });
    auto result = optimize(task, source, options("mcts", kBudget, 11), slow, *store);
    ::_exit(result ? 0 : 1);
  }
  // Kill it once a dozen evaluations are committed, well before the budget is spent.
  std::size_t seen = 0;
  for (int i = 0; i < 2000 && seen < 12; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (!std::filesystem::exists(killed_path)) continue;
    auto store = Store::open(killed_path);
    if (!store) continue;
    auto history = store->load_run(RunId(1));
    if (history) seen = history->evaluations.size();
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the child finished before it was killed";
  ASSERT_GE(seen, 12u);

  auto store = Store::open(killed_path);
  ASSERT_TRUE(store) << store.error().message;
  ASSERT_TRUE(store->check_integrity());
  auto before = store->load_run(RunId(1));
  ASSERT_TRUE(before);
  EXPECT_EQ(before->run.status, RunStatus::running);
  std::size_t const recorded = before->evaluations.size();
  ASSERT_LT(recorded, kBudget);

  FakeCandidateEvaluator resumed_fake(test::landscape);
  auto resumed = resume(RunId(1), task, resumed_fake, *store);
  ASSERT_TRUE(resumed) << resumed.error().message;
  EXPECT_EQ(resumed->points, kBudget);
  EXPECT_GE(resumed->from_store, recorded);  // the killed run's work is replayed, not redone
  EXPECT_EQ(resumed_fake.calls(), kBudget - resumed->from_store + 1);
  EXPECT_EQ(resumed->incumbent_config, reference->incumbent_config);
  EXPECT_EQ(resumed->incumbent_screen_speedup, reference->incumbent_screen_speedup);

  // Same points in the same order as the uninterrupted run.
  auto a = reference_store.load_run(reference->run);
  auto b = store->load_run(RunId(1));
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->candidates.size(), b->candidates.size());
  for (std::size_t i = 0; i < a->candidates.size(); ++i)
    EXPECT_EQ(a->candidates[i].candidate.key, b->candidates[i].candidate.key) << i;
  EXPECT_EQ(b->run.status, RunStatus::finished);

  // The search memory learned from the killed-and-resumed run equals the uninterrupted run's.
  auto const family = search_memory_family(task);
  auto memory_a = reference_store.search_memory(family);
  auto memory_b = store->search_memory(family);
  ASSERT_TRUE(memory_a && memory_b);
  ASSERT_FALSE(memory_a->empty());
  ASSERT_EQ(memory_a->size(), memory_b->size());
  for (std::size_t i = 0; i < memory_a->size(); ++i) {
    EXPECT_EQ((*memory_a)[i].action, (*memory_b)[i].action);
    EXPECT_EQ((*memory_a)[i].tries, (*memory_b)[i].tries) << (*memory_a)[i].action;
    EXPECT_DOUBLE_EQ((*memory_a)[i].mean_log_gain, (*memory_b)[i].mean_log_gain);
  }

  auto again = resume(RunId(1), task, resumed_fake, *store);
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().message.find("finished"), std::string::npos);
}

TEST_F(OptimizeFixture, MctsRunsTeachTheSearchMemoryOfTheirTaskFamily) {
  Store store = open_store();
  auto const family = search_memory_family(task);
  EXPECT_EQ(family, task.family.empty() ? "task:" + task.name : task.family);
  FakeCandidateEvaluator fake(test::landscape);
  auto first = optimize(task, source, options("mcts", 20, 3), fake, store);
  ASSERT_TRUE(first) << first.error().message;
  auto learned = store.search_memory(family);
  ASSERT_TRUE(learned) << learned.error().message;
  ASSERT_FALSE(learned->empty());
  std::int64_t tries = 0;
  for (ActionRecord const& record : *learned) {
    EXPECT_NE(record.action.find(':'), std::string::npos) << record.action;  // knob moves, e.g. VEC:+1
    tries += record.tries;
  }
  // Every expansion but the roots' first points came from an action.
  auto history = store.load_run(first->run);
  ASSERT_TRUE(history);
  std::int64_t with_action = 0;
  for (auto const& candidate : history->candidates) with_action += candidate.candidate.action.empty() ? 0 : 1;
  EXPECT_EQ(tries, with_action);

  // The next run starts from a snapshot of that memory, kept in its options for resume.
  auto second = optimize(task, source, options("mcts", 10, 4), fake, store);
  ASSERT_TRUE(second) << second.error().message;
  auto second_history = store.load_run(second->run);
  ASSERT_TRUE(second_history);
  auto const& snapshot = second_history->run.run.options["memory"];
  EXPECT_EQ(snapshot["family"], family);
  ASSERT_EQ(snapshot["prior"].size(), learned->size());
  for (std::size_t i = 0; i < learned->size(); ++i) {
    EXPECT_EQ(snapshot["prior"][i]["action"], (*learned)[i].action);
    EXPECT_EQ(snapshot["prior"][i]["tries"], (*learned)[i].tries);
  }
  auto after = store.search_memory(family);
  ASSERT_TRUE(after);
  std::int64_t tries_after = 0;
  for (ActionRecord const& record : *after) tries_after += record.tries;
  EXPECT_GT(tries_after, tries);  // the second run taught it too
}

TEST_F(OptimizeFixture, SearchMemoryOffNeitherReadsNorWrites) {
  Store store = open_store();
  ASSERT_TRUE(store.record_action_outcome(search_memory_family(task), "BLOCK:+1", true, 5.0));
  FakeCandidateEvaluator fake(test::landscape);
  auto o = options("mcts", 15, 3);
  o.search_memory = false;
  auto run = optimize(task, source, o, fake, store);
  ASSERT_TRUE(run) << run.error().message;
  auto history = store.load_run(run->run);
  ASSERT_TRUE(history);
  EXPECT_FALSE(history->run.run.options.contains("memory"));
  auto memory = store.search_memory(search_memory_family(task));
  ASSERT_TRUE(memory);
  ASSERT_EQ(memory->size(), 1u);
  EXPECT_EQ((*memory)[0].tries, 1);
}

// Counts the candidates of each evaluate() call, answering through the fake evaluator.
class BatchCountingEvaluator final : public CandidateEvaluator {
 public:
  EvaluationTarget target() const override { return fake.target(); }
  Result<std::vector<CandidateReport>> evaluate(TaskSpec const& task,
                                                std::vector<CandidateInput> const& candidates,
                                                TimingTier tier) override {
    batches.push_back(candidates.size());
    if (tier == TimingTier::screen) {
      for (auto const& candidate : candidates) {
        evaluated.push_back(candidate.name);
        events.emplace_back('e', candidate.name);
      }
    }
    return fake.evaluate(task, candidates, tier);
  }
  void compile_ahead(TaskSpec const& /*task*/, std::vector<CandidateInput> const& candidates) override {
    for (auto const& candidate : candidates) {
      ahead.push_back(candidate.name);
      events.emplace_back('a', candidate.name);
    }
  }
  // Screened candidates that an earlier compile_ahead call had handed over.
  std::size_t compiled_ahead_hits() const {
    std::set<std::string> handed;
    std::size_t hits = 0;
    for (auto const& [kind, name] : events) {
      if (kind == 'a') handed.insert(name);
      if (kind == 'e' && handed.count(name) > 0) ++hits;
    }
    return hits;
  }
  FakeCandidateEvaluator fake{test::landscape};
  std::vector<std::size_t> batches;
  std::vector<std::string> evaluated;                // names screened, in evaluation order
  std::vector<std::string> ahead;                    // names handed to compile_ahead, in order
  std::vector<std::pair<char, std::string>> events;  // 'a' compile_ahead, 'e' screened, in call order
};

TEST_F(OptimizeFixture, OutcomeIndependentStrategiesEvaluateInBatchesWithinTheBudget) {
  for (std::string const strategy : {"exhaustive", "random"}) {
    SCOPED_TRACE(strategy);
    Store batched_store = open_store(strategy + "-batched.db");
    BatchCountingEvaluator batched;
    auto a = optimize(task, source, options(strategy, 21, 5), batched, batched_store);
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_EQ(a->points, 21u);
    EXPECT_EQ(batched.fake.calls(), 22u);  // 21 screened (nothing past the budget) + the confirmation
    EXPECT_GT(*std::max_element(batched.batches.begin(), batched.batches.end()), 1u);
    // Every point recorded once, none beyond the budget.
    auto history = batched_store.load_run(a->run);
    ASSERT_TRUE(history);
    std::vector<std::string> order;
    for (auto const& candidate : history->candidates) order.push_back(candidate.candidate.key.value());
    std::set<std::string> const unique(order.begin(), order.end());
    EXPECT_EQ(unique.size(), order.size());
    EXPECT_EQ(order.size(), 21u);
    // The batch after the current one was compiled ahead, and everything compiled ahead was then
    // evaluated, in the same order (the landscape has no failures to prune anything in between).
    EXPECT_FALSE(batched.ahead.empty());
    std::set<std::string> const evaluated(batched.evaluated.begin(), batched.evaluated.end());
    for (auto const& name : batched.ahead) EXPECT_EQ(evaluated.count(name), 1u) << name;
    std::vector<std::string> ahead_in_evaluation_order;
    for (auto const& name : batched.evaluated) {
      if (std::find(batched.ahead.begin(), batched.ahead.end(), name) != batched.ahead.end())
        ahead_in_evaluation_order.push_back(name);
    }
    std::vector<std::string> ahead_unique;
    for (auto const& name : batched.ahead) {
      if (std::find(ahead_unique.begin(), ahead_unique.end(), name) == ahead_unique.end())
        ahead_unique.push_back(name);
    }
    EXPECT_EQ(ahead_in_evaluation_order, ahead_unique);
  }
}

TEST_F(OptimizeFixture, OneAtATimeStrategiesCompileTheNeighboursOfEachPointAhead) {
  for (std::string const strategy : {"greedy", "mcts"}) {
    SCOPED_TRACE(strategy);
    Store store = open_store(strategy + "-ahead.db");
    BatchCountingEvaluator evaluator;
    auto run = optimize(task, source, options(strategy, 16, 3), evaluator, store);
    ASSERT_TRUE(run) << run.error().message;
    for (std::size_t size : evaluator.batches) EXPECT_EQ(size, 1u) << "one candidate per evaluate()";
    ASSERT_FALSE(evaluator.ahead.empty());
    // Most points after the first were compiled while an earlier one was on the GPU.
    std::size_t const hits = evaluator.compiled_ahead_hits();
    std::cout << strategy << ": " << hits << " of " << evaluator.evaluated.size()
              << " screened candidates were compiled ahead\n";
    EXPECT_GE(2 * hits, evaluator.evaluated.size() - 1);
  }
}

TEST_F(OptimizeFixture, MctsConstantsAreKeptWithTheRun) {
  Store store = open_store();
  FakeCandidateEvaluator fake(test::landscape);
  auto o = options("mcts", 6, 2);
  o.mcts.exploration = 0.7;
  o.mcts.roots_k = 3.0;
  o.mcts.dead_end_window = 5;
  auto run = optimize(task, source, o, fake, store);
  ASSERT_TRUE(run) << run.error().message;
  auto info = load_optimize_run(store, run->run);
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_DOUBLE_EQ(info->options.mcts.exploration, 0.7);
  EXPECT_DOUBLE_EQ(info->options.mcts.roots_k, 3.0);
  EXPECT_EQ(info->options.mcts.dead_end_window, 5);
  EXPECT_DOUBLE_EQ(info->options.mcts.widening_alpha, MctsConfig{}.widening_alpha);
}

TEST_F(OptimizeFixture, ResumeRefusesUnknownRunsAndOtherTasks) {
  Store store = open_store();
  FakeCandidateEvaluator fake(test::landscape);
  auto missing = resume(RunId(9), task, fake, store);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);
  kopt::Run foreign;
  foreign.task_name = "other";
  auto id = store.create_run(foreign);
  ASSERT_TRUE(id);
  auto not_ours = resume(*id, task, fake, store);
  ASSERT_FALSE(not_ours);
  EXPECT_NE(not_ours.error().message.find("options"), std::string::npos);
}

TEST_F(OptimizeFixture, SourceWithoutKnobsIsRefused) {
  Store store = open_store();
  FakeCandidateEvaluator fake(test::landscape);
  auto result = optimize(task, "__global__ void vector_add() {}\n", options("mcts", 5), fake, store);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("kopt:knob"), std::string::npos);
  EXPECT_EQ(fake.calls(), 0u);
}

}  // namespace optimize_test
}  // namespace kopt
