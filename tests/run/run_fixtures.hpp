// Shared by the run layer's tests: a store in a temporary folder and runs written through RunLog alone (no
// search, no evaluator), so that what is recorded and read back is exactly what the test wrote.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>

#include "kopt/run_log.hpp"
#include "kopt/store.hpp"
#include "support/temp_dir.hpp"

namespace kopt::test {

inline EvaluationTarget h200_target() {
  return EvaluationTarget{"NVIDIA H200", "GPU-1", "575.0", "12.9", "sm_90", {}};
}

// An options document as optimize writes it (the shared fields of kopt.optimize/1).
inline nlohmann::json optimize_options(std::string const& strategy, std::string const& source) {
  return {{"schema", "kopt.optimize/1"},
          {"strategy", strategy},
          {"source_path", "k.cu"},
          {"source", source},
          {"flags", {"-O3"}},
          {"confirm", true},
          {"search_memory", false},
          {"objective", "runtime"}};
}

inline Run run_row(std::string const& strategy, std::uint64_t seed = 7) {
  Run run;
  run.task_name = "vector_add";
  run.task_dir = "/tasks/vector_add";
  run.options = optimize_options(strategy, "__global__ void k() {}");
  run.seed = seed;
  run.budget = {{"evaluations", 20}, {"seconds", 60.0}};
  return run;
}

inline CandidateInput candidate(std::string const& block) {
  CandidateInput input;
  input.name = "BLOCK=" + block;
  input.source = "#define BLOCK " + block + "\n__global__ void k() {}\n";
  input.knobs = {{"BLOCK", block}};
  return input;
}

// An ok screen (or confirm) evaluation: one timed size, `speedup` = 100 us / the candidate's median.
inline RecordedEvaluation ok_evaluation(double speedup, std::string const& tier = "screen") {
  RecordedEvaluation evaluation;
  evaluation.tier = tier;
  evaluation.geomean_speedup = speedup;
  evaluation.sizes = nlohmann::json::array({{{"size", "large"},
                                             {"verify_only", false},
                                             {"status", "ok"},
                                             {"message", ""},
                                             {"max_abs_err", 0.0},
                                             {"max_rel_err", 0.0},
                                             {"median_us", 100.0 / speedup},
                                             {"iqr_us", 1.0},
                                             {"reference_us", 100.0},
                                             {"speedup", speedup}}});
  return evaluation;
}

inline RecordedEvaluation failed_evaluation(CandidateStatus status, std::string const& message) {
  RecordedEvaluation evaluation;
  evaluation.status = status;
  evaluation.message = message;
  evaluation.tier = "screen";
  return evaluation;
}

struct RunStore : ::testing::Test {
  void SetUp() override {
    auto opened = Store::open(dir.path() / "kopt.db");
    ASSERT_TRUE(opened) << opened.error().message;
    store.emplace(std::move(*opened));
  }
  // Records `evaluation` of `input` in `log` on the H200 target; fails the test on an error.
  CandidateId record(RunLog& log, CandidateInput const& input, RecordedEvaluation const& evaluation) {
    auto id =
        log.record(content_key(input, h200_target()), input, std::nullopt, "", evaluation, h200_target());
    EXPECT_TRUE(id) << id.error().message;
    return id ? *id : CandidateId(0);
  }
  TempDir dir;
  std::optional<Store> store;
};

}  // namespace kopt::test
