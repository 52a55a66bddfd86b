// GpuPoolCandidateEvaluator with fake GPUs: how a batch is split, that the GPUs work at once, that the
// confirm tier stays on the designated GPU, what is refused, and a whole search over four GPUs.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "kopt/optimize_gpu_pool.hpp"
#include "kopt/run_log.hpp"
#include "kopt/store.hpp"
#include "optimize/optimize_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace gpu_pool_candidate_evaluator_test {

EvaluationTarget gpu(std::string uuid, std::string model = "NVIDIA H200", std::string arch = "sm_90") {
  EvaluationTarget target = FakeCandidateEvaluator::fake_target();
  target.device_uuid = std::move(uuid);
  target.device_name = std::move(model);
  target.arch = std::move(arch);
  return target;
}

// Where every member of the pool checks in while it evaluates: `met` once all of them were inside
// evaluate() at the same time (each waits up to 10 s for the others).
struct Meeting {
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t inside = 0;
  std::size_t expected = 0;
  bool met = false;
  void arrive() {
    std::unique_lock lock(mutex);
    if (++inside == expected) met = true;
    changed.notify_all();
    changed.wait_for(lock, std::chrono::seconds(10), [&] { return met; });
  }
};

// A fake GPU: answers from the landscape and records the names of what it was asked, per tier.
class FakeGpu final : public CandidateEvaluator {
 public:
  FakeGpu(std::string uuid, Meeting* meeting = nullptr, std::string model = "NVIDIA H200")
      : fake(test::landscape, gpu(std::move(uuid), std::move(model))), meeting_(meeting) {}
  EvaluationTarget target() const override { return fake.target(); }
  Result<std::vector<CandidateReport>> evaluate(TaskSpec const& task,
                                                std::vector<CandidateInput> const& candidates,
                                                TimingTier tier) override {
    if (meeting_ != nullptr && tier == TimingTier::screen) meeting_->arrive();
    if (failure) return *failure;
    for (auto const& candidate : candidates)
      (tier == TimingTier::screen ? screened : confirmed).push_back(candidate.name);
    return fake.evaluate(task, candidates, tier);
  }
  void compile_ahead(TaskSpec const& /*task*/, std::vector<CandidateInput> const& candidates) override {
    for (auto const& candidate : candidates) ahead.push_back(candidate.name);
  }
  Status build_trusted_code(TaskSpec const& task) override {
    trusted_build_order = ++*trusted_builds_counter;
    return fake.build_trusted_code(task);
  }
  FakeCandidateEvaluator fake;
  std::vector<std::string> screened;
  std::vector<std::string> confirmed;
  std::vector<std::string> ahead;
  std::optional<Error> failure;
  int trusted_build_order = 0;
  int* trusted_builds_counter = &own_counter_;

 private:
  Meeting* meeting_;
  int own_counter_ = 0;
};

struct GpuPoolTest : ::testing::Test {
  void SetUp() override {
    auto loaded = load_task(test::kTaskDir);
    ASSERT_TRUE(loaded) << loaded.error().message;
    task = *loaded;
  }
  static std::vector<CandidateInput> candidates(std::size_t count) {
    std::vector<CandidateInput> batch;
    for (std::size_t i = 0; i < count; ++i) {
      CandidateInput candidate;
      candidate.name = "c" + std::to_string(i);
      candidate.source = "// kopt:knob BLOCK=256\n// kopt:knob VEC=4\n// kopt:knob ITEMS=2\n";
      candidate.knobs = {{"BLOCK", "256"}, {"VEC", "4"}, {"ITEMS", "2"}};
      batch.push_back(std::move(candidate));
    }
    return batch;
  }
  // The pool over `gpus` (kept here to inspect); the pool owns them.
  std::unique_ptr<GpuPoolCandidateEvaluator> pool_of(std::vector<FakeGpu*>& gpus, std::size_t count,
                                                     Meeting* meeting = nullptr) {
    std::vector<std::unique_ptr<CandidateEvaluator>> members;
    for (std::size_t i = 0; i < count; ++i) {
      auto member = std::make_unique<FakeGpu>("GPU-" + std::to_string(i), meeting);
      member->trusted_builds_counter = &trusted_builds;
      gpus.push_back(member.get());
      members.push_back(std::move(member));
    }
    auto pool = GpuPoolCandidateEvaluator::create(std::move(members));
    EXPECT_TRUE(pool) << pool.error().message;
    return pool ? std::move(*pool) : nullptr;
  }
  // kopt optimize of the vector_add tunable kernel on `pool`, into a fresh store (kept in `store`), so that
  // no earlier search answers its points.
  Result<OptimizeResult> search(CandidateEvaluator& pool, std::string strategy, std::size_t budget,
                                std::uint64_t seed) {
    auto opened = Store::open(dir.path() / ("search-" + std::to_string(++searches) + ".db"));
    if (!opened) return opened.error();
    store.emplace(std::move(*opened));
    OptimizeOptions options;
    options.strategy = std::move(strategy);
    options.max_evaluations = budget;
    options.seed = seed;
    options.source_path = test::kTunable;
    return optimize(task, test::read_text(test::kTunable), options, pool, *store);
  }
  TaskSpec task;
  int trusted_builds = 0;
  test::TempDir dir;
  int searches = 0;
  std::optional<Store> store;  // the last search's
};

TEST_F(GpuPoolTest, AScreenBatchIsSplitIntoSlicesOnEveryGpuAndComesBackInOrder) {
  std::vector<FakeGpu*> gpus;
  auto pool = pool_of(gpus, 3);
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->concurrency(), 3u);
  EXPECT_EQ(pool->target().device_uuid, "GPU-0") << "the designated GPU is the run's target";
  auto reports = pool->evaluate(task, candidates(7), TimingTier::screen);
  ASSERT_TRUE(reports) << reports.error().message;
  ASSERT_EQ(reports->size(), 7u);
  for (std::size_t i = 0; i < 7; ++i) EXPECT_EQ((*reports)[i].name, "c" + std::to_string(i));
  EXPECT_EQ(gpus[0]->screened, (std::vector<std::string>{"c0", "c1", "c2"}));
  EXPECT_EQ(gpus[1]->screened, (std::vector<std::string>{"c3", "c4"}));
  EXPECT_EQ(gpus[2]->screened, (std::vector<std::string>{"c5", "c6"}));
  // Fewer candidates than GPUs: one each, the last GPU idle.
  auto two = pool->evaluate(task, candidates(2), TimingTier::screen);
  ASSERT_TRUE(two);
  EXPECT_EQ(gpus[0]->screened.back(), "c0");
  EXPECT_EQ(gpus[1]->screened.back(), "c1");
  EXPECT_EQ(gpus[2]->screened.size(), 2u);
}

TEST_F(GpuPoolTest, TheGpusEvaluateAtOnce) {
  Meeting meeting;
  meeting.expected = 4;
  std::vector<FakeGpu*> gpus;
  auto pool = pool_of(gpus, 4, &meeting);
  ASSERT_NE(pool, nullptr);
  auto reports = pool->evaluate(task, candidates(8), TimingTier::screen);
  ASSERT_TRUE(reports) << reports.error().message;
  EXPECT_TRUE(meeting.met) << "all four GPUs were inside evaluate() together";
}

TEST_F(GpuPoolTest, TheConfirmTierRunsOnTheDesignatedGpuOnly) {
  std::vector<FakeGpu*> gpus;
  auto pool = pool_of(gpus, 4);
  ASSERT_NE(pool, nullptr);
  auto reports = pool->evaluate(task, candidates(3), TimingTier::confirm);
  ASSERT_TRUE(reports) << reports.error().message;
  EXPECT_EQ(gpus[0]->confirmed.size(), 3u);
  for (std::size_t i = 1; i < gpus.size(); ++i) EXPECT_TRUE(gpus[i]->confirmed.empty());
}

TEST_F(GpuPoolTest, CompileAheadIsSlicedAsTheBatchWillBeAndTrustedCodeIsBuiltOnTheDesignatedGpuFirst) {
  std::vector<FakeGpu*> gpus;
  auto pool = pool_of(gpus, 2);
  ASSERT_NE(pool, nullptr);
  pool->compile_ahead(task, candidates(5));
  EXPECT_EQ(gpus[0]->ahead, (std::vector<std::string>{"c0", "c1", "c2"}));
  EXPECT_EQ(gpus[1]->ahead, (std::vector<std::string>{"c3", "c4"}));
  ASSERT_TRUE(pool->build_trusted_code(task));
  EXPECT_EQ(gpus[0]->trusted_build_order, 1) << "into the shared compile cache before the others load it";
  EXPECT_EQ(gpus[1]->trusted_build_order, 2);
}

TEST_F(GpuPoolTest, AFailingGpuFailsTheBatchAndIsNamed) {
  std::vector<FakeGpu*> gpus;
  auto pool = pool_of(gpus, 3);
  ASSERT_NE(pool, nullptr);
  gpus[2]->failure = Error{ErrorCode::worker_error, "the worker exited with signal 9"};
  auto reports = pool->evaluate(task, candidates(6), TimingTier::screen);
  ASSERT_FALSE(reports);
  EXPECT_EQ(reports.error().code, ErrorCode::worker_error);
  EXPECT_NE(reports.error().message.find("GPU-2"), std::string::npos) << reports.error().message;
}

TEST_F(GpuPoolTest, GpusOfAnotherModelOrTheSameGpuTwiceAreRefused) {
  std::vector<std::unique_ptr<CandidateEvaluator>> mixed;
  mixed.push_back(std::make_unique<FakeGpu>("GPU-0"));
  mixed.push_back(std::make_unique<FakeGpu>("GPU-1", nullptr, "NVIDIA A100-SXM4-80GB"));
  auto refused = GpuPoolCandidateEvaluator::create(std::move(mixed));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(refused.error().message.find("A100"), std::string::npos) << refused.error().message;
  EXPECT_NE(refused.error().message.find("one model"), std::string::npos);

  std::vector<std::unique_ptr<CandidateEvaluator>> twice;
  twice.push_back(std::make_unique<FakeGpu>("GPU-0"));
  twice.push_back(std::make_unique<FakeGpu>("GPU-0"));
  auto duplicate = GpuPoolCandidateEvaluator::create(std::move(twice));
  ASSERT_FALSE(duplicate);
  EXPECT_NE(duplicate.error().message.find("twice"), std::string::npos);

  EXPECT_FALSE(GpuPoolCandidateEvaluator::create({}));
}

TEST_F(GpuPoolTest, AnMctsSearchKeepsEveryGpuBusyAndConfirmsOnTheDesignatedOne) {
  std::vector<FakeGpu*> gpus;
  auto pool = pool_of(gpus, 4);
  ASSERT_NE(pool, nullptr);
  auto result = search(*pool, "mcts", 30, 3);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->concurrent_evaluations, 4u);
  EXPECT_EQ(result->points, 30u);
  std::size_t screened = 0;
  for (FakeGpu const* g : gpus) {
    EXPECT_GE(g->screened.size(), 5u) << g->target().device_uuid << " kept busy";
    screened += g->screened.size();
  }
  EXPECT_EQ(screened, 30u) << "each point evaluated once, on one GPU";
  EXPECT_EQ(gpus[0]->confirmed.size(), 1u);
  for (std::size_t i = 1; i < gpus.size(); ++i) EXPECT_TRUE(gpus[i]->confirmed.empty());
  // Every point recorded once, with the parents MCTS derived them from.
  auto history = store->load_run(result->run);
  ASSERT_TRUE(history) << history.error().message;
  std::set<std::string> keys;
  std::size_t with_parent = 0;
  for (auto const& c : history->candidates) {
    keys.insert(c.candidate.key.value());
    if (c.candidate.parent) ++with_parent;
  }
  EXPECT_EQ(keys.size(), 30u);
  EXPECT_GT(with_parent, 10u);
  EXPECT_EQ(result->incumbent_config, "BLOCK=256;ITEMS=2;VEC=4");
  // Every evaluation records the GPU that ran it; the run's target (the dedupe key) stays the designated
  // GPU's.
  std::map<std::string, std::size_t> screened_on;
  for (auto const& e : history->evaluations) {
    EXPECT_EQ(e.evaluation.device_uuid, "GPU-0");
    auto const place = place_from_json(e.evaluation.ran_on);
    ASSERT_TRUE(place) << e.evaluation.ran_on.dump();
    if (e.evaluation.tier == "confirm") {
      EXPECT_EQ(place->device_uuid, "GPU-0") << "the confirm tier ran on the designated GPU";
    } else {
      ++screened_on[place->device_uuid];
    }
  }
  for (FakeGpu const* g : gpus) EXPECT_EQ(screened_on[g->target().device_uuid], g->screened.size());
}

TEST_F(GpuPoolTest, SearchesThatLookAheadEvaluateNothingPastTheBudgetOnSeveralGpus) {
  for (std::string const strategy : {"exhaustive", "random"}) {
    SCOPED_TRACE(strategy);
    std::vector<FakeGpu*> gpus;
    auto pool = pool_of(gpus, 4);
    ASSERT_NE(pool, nullptr);
    auto result = search(*pool, strategy, 21, 5);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->points, 21u);
    std::set<std::string> screened;
    std::size_t count = 0;
    for (FakeGpu const* g : gpus) {
      screened.insert(g->screened.begin(), g->screened.end());
      count += g->screened.size();
    }
    EXPECT_EQ(count, 21u) << "the budget and no more, the compile-ahead lookahead included";
    EXPECT_EQ(screened.size(), 21u);
  }
}

}  // namespace gpu_pool_candidate_evaluator_test
}  // namespace kopt
