#include <gtest/gtest.h>

#include "kopt/store.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace dedupe_test {

using test::sample_candidate;
using test::sample_evaluation;
using test::sample_run;

class StoreLookups : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = Store::open(dir_.path() / "kopt.db");
    ASSERT_TRUE(opened) << opened.error().message;
    store_.emplace(std::move(*opened));
    auto created = store_->create_run(sample_run());
    ASSERT_TRUE(created);
    run_ = *created;
  }
  CandidateId add(std::string const& key, RunId run) {
    auto id = store_->add_candidate(run, sample_candidate(key));
    EXPECT_TRUE(id) << id.error().message;
    return id ? *id : CandidateId();
  }
  Store& store() { return *store_; }

  test::TempDir dir_;
  std::optional<Store> store_;
  RunId run_;
};

TEST_F(StoreLookups, EvaluationIsFoundByContentKeyDeviceAndToolkit) {
  auto candidate = add("abc123", run_);
  auto evaluation = store().add_evaluation(candidate, sample_evaluation(1.7, "GPU-A", "13.0"));
  ASSERT_TRUE(evaluation);
  auto hit = store().find_evaluation_by_key(CandidateKey("abc123"), "GPU-A", "13.0");
  ASSERT_TRUE(hit) << hit.error().message;
  ASSERT_TRUE(*hit);
  EXPECT_EQ((*hit)->id, *evaluation);
  EXPECT_EQ((*hit)->candidate, candidate);
  EXPECT_EQ((*hit)->evaluation.geomean_speedup, 1.7);

  for (auto [key, uuid, toolkit] :
       {std::tuple{"abc123", "GPU-B", "13.0"}, std::tuple{"abc123", "GPU-A", "12.8"},
        std::tuple{"abc124", "GPU-A", "13.0"}}) {
    auto miss = store().find_evaluation_by_key(CandidateKey(key), uuid, toolkit);
    ASSERT_TRUE(miss);
    EXPECT_FALSE(*miss) << key << " " << uuid << " " << toolkit;
  }
}

TEST_F(StoreLookups, DedupeSpansRunsAndReturnsTheNewestEvaluation) {
  auto first = add("shared", run_);
  ASSERT_TRUE(store().add_evaluation(first, sample_evaluation(1.1, "GPU-A", "13.0", "screen")));
  auto later_run = store().create_run(sample_run());
  ASSERT_TRUE(later_run);
  auto second = add("shared", *later_run);
  auto newest = store().add_evaluation(second, sample_evaluation(1.2, "GPU-A", "13.0", "confirm"));
  ASSERT_TRUE(newest);
  auto hit = store().find_evaluation_by_key(CandidateKey("shared"), "GPU-A", "13.0");
  ASSERT_TRUE(hit && *hit);
  EXPECT_EQ((*hit)->id, *newest);
  EXPECT_EQ((*hit)->evaluation.tier, "confirm");
}

TEST_F(StoreLookups, ATierPassesOverOkEvaluationsOfOtherTiersButNotFailures) {
  auto first = add("tiered", run_);
  auto screen = store().add_evaluation(first, sample_evaluation(1.1, "GPU-A", "13.0", "screen"));
  ASSERT_TRUE(screen);
  ASSERT_TRUE(store().add_evaluation(first, sample_evaluation(1.6, "GPU-A", "13.0", "confirm")));
  auto hit =
      store().find_evaluation_by_key(CandidateKey("tiered"), "GPU-A", "13.0", std::string_view("screen"));
  ASSERT_TRUE(hit && *hit);
  EXPECT_EQ((*hit)->id, *screen);
  auto none =
      store().find_evaluation_by_key(CandidateKey("tiered"), "GPU-A", "13.0", std::string_view("other"));
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value());

  EvaluationRecord failed = sample_evaluation(std::nullopt, "GPU-A", "13.0", "confirm");
  failed.status = CandidateStatus::nondeterministic;
  auto failure = store().add_evaluation(first, failed);
  ASSERT_TRUE(failure);
  hit = store().find_evaluation_by_key(CandidateKey("tiered"), "GPU-A", "13.0", std::string_view("screen"));
  ASSERT_TRUE(hit && *hit);
  EXPECT_EQ((*hit)->id, *failure);  // a failure is a failure on any tier
}

TEST_F(StoreLookups, ARunsVerifiedBestPrefersTheConfirmTier) {
  auto fast = add("fast-on-screen", run_);
  ASSERT_TRUE(store().add_evaluation(fast, sample_evaluation(3.0, "GPU-A", "13.0", "screen")));
  auto best = store().best_verified_candidate(run_);
  ASSERT_TRUE(best && *best);
  EXPECT_EQ((*best)->evaluation.evaluation.tier, "screen");  // nothing confirmed yet
  auto confirmed = add("confirmed", run_);
  ASSERT_TRUE(store().add_evaluation(confirmed, sample_evaluation(2.0, "GPU-A", "13.0", "confirm")));
  best = store().best_verified_candidate(run_);
  ASSERT_TRUE(best && *best);
  EXPECT_EQ((*best)->candidate.id, confirmed);  // a confirmed 2.0x beats a screened 3.0x
  EXPECT_EQ((*best)->evaluation.evaluation.tier, "confirm");
  EXPECT_FALSE(store().best_verified_candidate(RunId(999)));
}

TEST_F(StoreLookups, FailedEvaluationsAreCachedToo) {
  auto candidate = add("broken", run_);
  EvaluationRecord failed = sample_evaluation(std::nullopt, "GPU-A", "13.0");
  failed.status = CandidateStatus::compile_error;
  failed.message = "error: identifier \"x\" is undefined";
  ASSERT_TRUE(store().add_evaluation(candidate, failed));
  auto hit = store().find_evaluation_by_key(CandidateKey("broken"), "GPU-A", "13.0");
  ASSERT_TRUE(hit && *hit);
  EXPECT_EQ((*hit)->evaluation.status, CandidateStatus::compile_error);
  EXPECT_EQ((*hit)->evaluation.message, failed.message);
}

TEST_F(StoreLookups, BestCandidateIsTheFastestOkEvaluationOfTheRun) {
  auto slow = add("slow", run_);
  auto fast = add("fast", run_);
  auto wrong = add("wrong", run_);
  auto screened = add("screened", run_);
  ASSERT_TRUE(store().add_evaluation(slow, sample_evaluation(1.2)));
  ASSERT_TRUE(store().add_evaluation(fast, sample_evaluation(2.5)));
  EvaluationRecord rejected = sample_evaluation(9.0);
  rejected.status = CandidateStatus::implausibly_fast;
  ASSERT_TRUE(store().add_evaluation(wrong, rejected));
  ASSERT_TRUE(store().add_evaluation(screened, sample_evaluation(3.0, "GPU-1111", "13.0", "screen")));
  auto other_run = store().create_run(sample_run());
  ASSERT_TRUE(other_run);
  ASSERT_TRUE(store().add_evaluation(add("elsewhere", *other_run), sample_evaluation(50.0)));

  auto best = store().best_candidate(run_);
  ASSERT_TRUE(best) << best.error().message;
  ASSERT_TRUE(*best);
  EXPECT_EQ((*best)->candidate.id, screened);
  EXPECT_EQ((*best)->candidate.candidate.key, CandidateKey("screened"));
  EXPECT_EQ((*best)->evaluation.evaluation.geomean_speedup, 3.0);

  auto confirmed = store().best_candidate(run_, "confirm");
  ASSERT_TRUE(confirmed && *confirmed);
  EXPECT_EQ((*confirmed)->candidate.id, fast);
  EXPECT_EQ((*confirmed)->evaluation.evaluation.tier, "confirm");
}

TEST_F(StoreLookups, BestCandidateOfAnEmptyRunIsNoneAndOfAnUnknownRunAnError) {
  auto none = store().best_candidate(run_);
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  auto unknown = store().best_candidate(RunId(31));
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::not_found);
}

}  // namespace dedupe_test
}  // namespace kopt
