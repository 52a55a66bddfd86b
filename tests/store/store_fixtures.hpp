// Shared test data for the store tests, and raw SQLite access for inspecting or damaging a file.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "kopt/store.hpp"

namespace kopt::test {

inline Run sample_run(std::string task = "softmax") {
  Run run;
  run.task_name = std::move(task);
  run.task_dir = "/tasks/softmax";
  run.options = {{"budget", 50}, {"strategy", "beam"}};
  run.seed = 0xFEDCBA9876543210ULL;  // above INT64_MAX: must survive the signed column
  run.budget = {{"evaluations", 50}, {"seconds", 600.5}};
  return run;
}

inline Candidate sample_candidate(std::string key, std::optional<CandidateId> parent = std::nullopt) {
  Candidate candidate;
  candidate.key = CandidateKey(std::move(key));
  candidate.source = "__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n// \xce\xbb unicode";
  candidate.knobs = {{"block", 256}, {"unroll", 4}};
  candidate.flags = {"-O3", "--use_fast_math"};
  candidate.parent = parent;
  candidate.action = parent ? "tile_rows" : "";
  candidate.mode = "kernel";
  return candidate;
}

inline EvaluationRecord sample_evaluation(std::optional<double> speedup = 1.5, std::string uuid = "GPU-1111",
                                          std::string toolkit = "13.0", std::string tier = "confirm") {
  EvaluationRecord evaluation;
  evaluation.status = CandidateStatus::ok;
  evaluation.message = "";
  evaluation.device_name = "NVIDIA H200";
  evaluation.device_uuid = std::move(uuid);
  evaluation.driver = "580.65.06";
  evaluation.toolkit = std::move(toolkit);
  evaluation.tier = std::move(tier);
  evaluation.geomean_speedup = speedup;
  evaluation.sizes =
      nlohmann::json::array({{{"size", "small"}, {"median_us", 12.5}, {"iqr_us", 0.25}, {"speedup", 1.4}},
                             {{"size", "large"}, {"median_us", 812.0}, {"iqr_us", 3.5}, {"speedup", 1.6}}});
  return evaluation;
}

// Runs SQL on the file with a plain SQLite connection (no kopt checks).
inline void raw_exec(std::filesystem::path const& path, std::string const& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  int const rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
  std::string const text = message != nullptr ? message : "";
  sqlite3_free(message);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << text;
}

// The first column of the first row of a query, as an integer (-1 when there is no row).
inline std::int64_t raw_int(std::filesystem::path const& path, std::string const& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  std::int64_t value = -1;
  if (sqlite3_step(statement) == SQLITE_ROW) value = sqlite3_column_int64(statement, 0);
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return value;
}

}  // namespace kopt::test
