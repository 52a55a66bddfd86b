#include <gtest/gtest.h>

#include "run_report/run_report_fixtures.hpp"
#include "run_report/sample_report.hpp"

namespace kopt {
namespace run_report_json_test {

using test::RunFixture;

TEST(RunReportJson, KeysAndValues) {
  nlohmann::json const json = to_json(test::sample_report());
  EXPECT_EQ(json["schema"], "kopt.run_report/1");
  for (char const* key : {"run", "task", "task_dir", "status", "strategy", "seed", "budget", "source_path",
                          "flags", "device", "driver", "toolkit", "started_at", "finished_at", "best",
                          "candidates", "evaluations", "steps", "failures"})
    EXPECT_TRUE(json.contains(key)) << key;
  EXPECT_EQ(json["run"], 7);
  EXPECT_EQ(json["budget"]["evaluations"], 10);
  EXPECT_TRUE(json["budget"]["seconds"].is_null());
  EXPECT_TRUE(json["finished_at"].is_null());
  EXPECT_EQ(json["best"]["candidate"], 2);
  EXPECT_EQ(json["best"]["tier"], "confirm");
  EXPECT_EQ(json["best"]["sizes"][0]["speedup"], 2.0);
  EXPECT_TRUE(json["best"]["sizes"][1]["median_us"].is_null());
  EXPECT_EQ(json["candidates"].size(), 3u);
  EXPECT_TRUE(json["candidates"][0]["parent"].is_null());
  EXPECT_EQ(json["evaluations"][2]["status"], "compile_error");
  EXPECT_EQ(json["steps"][1]["changes"][0],
            (nlohmann::json{{"knob", "BLOCK"}, {"before", "128"}, {"after", "256"}}));
  EXPECT_EQ(json["steps"][1]["diff"][0]["lines"][0], "-#define BLOCK 128");
  EXPECT_EQ(json["failures"][0]["status"], "compile_error");
  EXPECT_EQ(json["failures"][0]["count"], 1);
}

TEST(RunReportJson, NonFiniteNumbersAreStrings) {
  RunReport report = test::sample_report();
  report.best->geomean_speedup = std::numeric_limits<double>::infinity();
  report.evaluations[0].geomean_speedup = std::numeric_limits<double>::quiet_NaN();
  nlohmann::json const json = to_json(report);
  EXPECT_EQ(json["best"]["geomean_speedup"], "inf");
  EXPECT_EQ(json["evaluations"][0]["geomean_speedup"], "nan");
}

TEST_F(RunFixture, JsonOfARealRunRoundTripsThroughText) {
  RunReport const report = report_of(make_run("mcts", 20, 9));
  nlohmann::json const json = to_json(report);
  nlohmann::json const parsed = nlohmann::json::parse(json.dump());
  EXPECT_EQ(parsed, json);
  EXPECT_EQ(parsed["evaluations"].size(), report.evaluations.size());
  EXPECT_EQ(parsed["candidates"].size(), report.candidates.size());
  EXPECT_EQ(parsed["steps"].size(), report.steps.size());
  ASSERT_TRUE(report.best);
  EXPECT_EQ(parsed["best"]["candidate"], report.best->candidate.value());
  EXPECT_EQ(parsed["best"]["source"], report.best->source);
}

}  // namespace run_report_json_test
}  // namespace kopt
