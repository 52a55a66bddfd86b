// kopt optimize end to end on the GPU: a real tuning space (examples/vector_add's tunable kernel)
// searched by MCTS, every configuration compiled, verified and timed by the worker, the incumbent
// confirmed with the full protocol, everything in a store; then the store answers a repeat.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "kopt/optimize.hpp"
#include "kopt/optimize_gpu_pool.hpp"
#include "kopt/runs.hpp"
#include "kopt/store.hpp"
#include "kopt/task.hpp"
#include "support/temp_dir.hpp"

namespace kopt::testing {
namespace optimize_gpu_test {

TEST(OptimizeOnGpu, MctsTunesVectorAddAndTheStoreAnswersARepeat) {
  auto evaluator = KoptCandidateEvaluator::create(gpu_test_options());
  if (!evaluator && evaluator.error().code == ErrorCode::no_gpu)
    GTEST_SKIP() << "no CUDA GPU: " << evaluator.error().message;
  ASSERT_TRUE(evaluator) << evaluator.error().message;
  auto task = load_task(source_path("examples/vector_add"));
  ASSERT_TRUE(task) << task.error().message;
  auto const kernel = source_path("examples/vector_add/tunable/vector_add_tunable_kernel.cu");
  std::string const source = read_text(kernel);
  ASSERT_FALSE(source.empty());

  test::TempDir dir;
  auto store = Store::open(dir.path() / "kopt.db");
  ASSERT_TRUE(store) << store.error().message;
  OptimizeOptions options;
  options.strategy = "mcts";
  options.max_evaluations = 12;
  options.seed = kGpuTestSeed;
  options.source_path = kernel;
  auto run = optimize(*task, source, options, **evaluator, *store);
  ASSERT_TRUE(run) << run.error().message;
  auto history = store->load_run(run->run);
  ASSERT_TRUE(history) << history.error().message;
  std::string verdicts;  // every evaluation's status and message, shown with any failure below
  for (auto const& evaluation : history->evaluations) {
    verdicts += std::string(to_string(evaluation.evaluation.status)) + " [" + evaluation.evaluation.tier +
                "] " + evaluation.evaluation.message.substr(0, 400) + "\n";
  }
  SCOPED_TRACE(verdicts);
  EXPECT_EQ(run->points, 12u);
  EXPECT_EQ(run->evaluated, 13u);  // 12 configurations on the screen tier, the incumbent confirmed
  EXPECT_EQ(run->from_store, 0u);
  ASSERT_TRUE(run->incumbent.has_value());
  ASSERT_TRUE(run->confirmed.has_value());
  EXPECT_EQ(run->confirmed->status, CandidateStatus::ok) << describe(*run->confirmed);
  ASSERT_TRUE(run->confirmed->geomean_speedup.has_value());
  // The naive reference does one element per thread with no vector loads; every configuration of the
  // space is a vectorised, multi-element kernel, and the best of a dozen is clearly faster.
  EXPECT_GT(*run->confirmed->geomean_speedup, 1.2) << describe(*run->confirmed);

  EXPECT_EQ(history->run.status, RunStatus::finished);
  ASSERT_EQ(history->evaluations.size(), 13u);
  for (auto const& evaluation : history->evaluations) {
    // Every configuration of this space is a correct kernel: a rejection here is a kopt bug.
    EXPECT_EQ(evaluation.evaluation.status, CandidateStatus::ok) << evaluation.evaluation.message;
    EXPECT_FALSE(evaluation.evaluation.device_uuid.empty());
    EXPECT_TRUE(evaluation.evaluation.geomean_speedup.has_value());
  }
  EXPECT_EQ(history->evaluations.back().evaluation.tier, "confirm");

  auto exported = export_best(*store, run->run, dir.path() / "best.cu");
  ASSERT_TRUE(exported) << exported.error().message;
  EXPECT_EQ(exported->tier, "confirm");
  EXPECT_EQ(read_text(dir.path() / "best.cu"), exported->source);

  // The same search again (memory off, so MCTS proposes the same points): the store answers every
  // configuration; only the confirmation runs on the GPU.
  options.search_memory = false;
  auto repeat = optimize(*task, source, options, **evaluator, *store);
  ASSERT_TRUE(repeat) << repeat.error().message;
  EXPECT_EQ(repeat->from_store, 12u);
  EXPECT_EQ(repeat->evaluated, 1u);
  EXPECT_EQ(repeat->incumbent_config, run->incumbent_config);
}

// `--gpus all`: one worker per visible GPU of GPU 0's model (one on a single-GPU machine), a search with as
// many candidates in flight, the confirm tier on GPU 0.
TEST(OptimizeOnGpu, EveryGpuOfTheHostSearchesAndTheFirstConfirms) {
  std::vector<std::string> notes;
  auto pool = GpuPoolCandidateEvaluator::start(gpu_test_options(), std::nullopt, &notes);
  if (!pool && pool.error().code == ErrorCode::no_gpu)
    GTEST_SKIP() << "no CUDA GPU: " << pool.error().message;
  ASSERT_TRUE(pool) << pool.error().message;
  auto single = KoptCandidateEvaluator::create(gpu_test_options());
  ASSERT_TRUE(single) << single.error().message;
  int const visible = (*single)->device().visible_devices;
  EXPECT_GE(visible, 1);
  EXPECT_EQ((*pool)->concurrency() + notes.size(), static_cast<std::size_t>(visible))
      << "every visible GPU is in the pool or named as left out";
  EXPECT_EQ((*pool)->target().device_uuid, (*single)->target().device_uuid) << "GPU 0 is the designated one";

  auto task = load_task(source_path("examples/vector_add"));
  ASSERT_TRUE(task) << task.error().message;
  auto const kernel = source_path("examples/vector_add/tunable/vector_add_tunable_kernel.cu");
  test::TempDir dir;
  auto store = Store::open(dir.path() / "kopt.db");
  ASSERT_TRUE(store) << store.error().message;
  OptimizeOptions options;
  options.strategy = "mcts";
  options.max_evaluations = 8;
  options.seed = kGpuTestSeed;
  options.source_path = kernel;
  auto run = optimize(*task, read_text(kernel), options, **pool, *store);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(run->concurrent_evaluations, (*pool)->concurrency());
  EXPECT_EQ(run->points, 8u);
  ASSERT_TRUE(run->confirmed.has_value());
  EXPECT_EQ(run->confirmed->status, CandidateStatus::ok) << describe(*run->confirmed);
  auto history = store->load_run(run->run);
  ASSERT_TRUE(history) << history.error().message;
  for (auto const& evaluation : history->evaluations)
    EXPECT_EQ(evaluation.evaluation.status, CandidateStatus::ok) << evaluation.evaluation.message;
}

}  // namespace optimize_gpu_test
}  // namespace kopt::testing
