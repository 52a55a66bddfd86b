#include <gtest/gtest.h>

#include "kopt/report.hpp"
#include "report/sample_reports.hpp"

namespace kopt {
namespace json_test {

using nlohmann::json;

TEST(EvalReportJson, RoundTripIsExact) {
  EvalReport report = testing::sample_eval_report();
  json first = to_json(report);
  auto decoded = eval_report_from_json(first);
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(to_json(*decoded), first);
}

TEST(EvalReportJson, RoundTripThroughText) {
  json first = to_json(testing::sample_eval_report());
  auto decoded = eval_report_from_json(json::parse(first.dump(2)));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(to_json(*decoded), first);
  EXPECT_EQ(decoded->seed, 18446744073709551557ULL);
  ASSERT_EQ(decoded->candidates.size(), 3U);
  EXPECT_EQ(decoded->candidates[1].status, CandidateStatus::wrong_output);
  EXPECT_EQ(decoded->candidates[1].mode, CandidateMode::launcher);
  EXPECT_TRUE(std::isinf(decoded->candidates[1].sizes[1].max_rel_err));
  EXPECT_EQ(decoded->candidates[0].resources.registers, 40);
  EXPECT_EQ(decoded->candidates[0].resources.stack_bytes, -1);
  ASSERT_TRUE(decoded->candidates[0].sizes[0].candidate->graph_us.has_value());
  EXPECT_DOUBLE_EQ(decoded->candidates[0].sizes[0].candidate->graph_us->median, 3.2);
  // Where it ran: given for the first, absent (an older report, or an evaluator that did not say) for the
  // others.
  ASSERT_TRUE(decoded->candidates[0].ran_on.has_value());
  EXPECT_EQ(decoded->candidates[0].ran_on->worker, "node7:gpu3");
  EXPECT_EQ(decoded->candidates[0].ran_on->device_index, 3);
  EXPECT_EQ(decoded->candidates[0].ran_on->device_uuid, "GPU-3");
  EXPECT_FALSE(decoded->candidates[1].ran_on.has_value());
  json older = first;
  older["candidates"][0].erase("ran_on");
  auto from_older = eval_report_from_json(older);
  ASSERT_TRUE(from_older.ok()) << from_older.error().message;
  EXPECT_FALSE(from_older->candidates[0].ran_on.has_value());
}

TEST(EvalReportJson, ShapeUsesSchemaStringsAndNulls) {
  json j = to_json(testing::sample_eval_report());
  EXPECT_EQ(j["schema"], "kopt.eval/1");
  EXPECT_EQ(j["tier"], "screen");
  EXPECT_EQ(j["device"]["arch"], "sm_90");
  auto const& ok = j["candidates"][0];
  EXPECT_EQ(ok["status"], "ok");
  EXPECT_EQ(ok["mode"], "kernel");
  EXPECT_TRUE(ok["resources"]["stack_bytes"].is_null());
  EXPECT_TRUE(ok["sizes"][1]["baseline"].is_null());
  EXPECT_TRUE(ok["sizes"][2]["speedup"].is_null());
  EXPECT_TRUE(ok["sizes"][2]["verify_only"].get<bool>());
  EXPECT_DOUBLE_EQ(ok["sizes"][0]["reference"]["us"]["iqr"].get<double>(), 12.412 - 12.0);
  EXPECT_EQ(j["candidates"][1]["sizes"][1]["max_rel_err"], "inf");
  EXPECT_TRUE(j["candidates"][2]["geomean_speedup"].is_null());
  EXPECT_TRUE(j["seed"].is_number_unsigned());
}

TEST(EvalReportJson, RejectsOtherSchema) {
  json j = to_json(testing::sample_eval_report());
  j["schema"] = "kopt.task_check/1";
  auto decoded = eval_report_from_json(j);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error().code, ErrorCode::invalid_spec);
  EXPECT_NE(decoded.error().message.find("schema"), std::string::npos) << decoded.error().message;
  EXPECT_NE(decoded.error().message.find("kopt.eval/1"), std::string::npos) << decoded.error().message;
}

TEST(EvalReportJson, BadStatusNamesTheFieldPath) {
  json j = to_json(testing::sample_eval_report());
  j["candidates"][1]["sizes"][0]["status"] = "fine";
  auto decoded = eval_report_from_json(j);
  ASSERT_FALSE(decoded.ok());
  auto const& message = decoded.error().message;
  EXPECT_NE(message.find("candidates[1].sizes[0].status"), std::string::npos) << message;
  EXPECT_NE(message.find("wrong_output"), std::string::npos) << message;  // lists the choices
  EXPECT_NE(message.find("\"fine\""), std::string::npos) << message;
}

TEST(EvalReportJson, MissingAndMistypedFieldsAreErrors) {
  json missing = to_json(testing::sample_eval_report());
  missing["candidates"][0]["phases"].erase("verify_ms");
  auto a = eval_report_from_json(missing);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find("field 'candidates[0].phases.verify_ms': missing"), std::string::npos)
      << a.error().message;

  json mistyped = to_json(testing::sample_eval_report());
  mistyped["seed"] = -3;
  auto b = eval_report_from_json(mistyped);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("'seed': expected a non-negative integer"), std::string::npos)
      << b.error().message;

  auto c = eval_report_from_json(json::array());
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("expected an object"), std::string::npos) << c.error().message;
}

TEST(TaskCheckJson, RoundTripIsExact) {
  TaskCheckReport report = testing::sample_task_check();
  json first = to_json(report);
  EXPECT_EQ(first["schema"], "kopt.task_check/1");
  EXPECT_EQ(first["sizes"][0]["buffer_elements"][1]["name"], "in");
  EXPECT_TRUE(first["sizes"][1]["baseline"].is_null());
  auto decoded = task_check_report_from_json(json::parse(first.dump()));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(to_json(*decoded), first);
  EXPECT_FALSE(decoded->sizes[1].deterministic);
  EXPECT_EQ(decoded->warnings, report.warnings);
}

TEST(TaskCheckJson, RejectsEvalSchema) {
  json j = to_json(testing::sample_task_check());
  j["schema"] = "kopt.eval/1";
  auto decoded = task_check_report_from_json(j);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.error().message.find("kopt.task_check/1"), std::string::npos);
}

TEST(DoctorJson, ReportsProblemsWithoutGpu) {
  DoctorFindings findings;
  findings.tools = {{"nvcc", true, "13.0", "/usr/local/cuda/bin/nvcc", ""},
                    {"ncu", false, "", "", "install Nsight Compute for profiles"}};
  findings.device_error = "no CUDA device found";
  json j = to_json(findings);
  EXPECT_EQ(j["schema"], "kopt.doctor/1");
  EXPECT_FALSE(j["ready"].get<bool>());
  EXPECT_TRUE(j["device"].is_null());
  ASSERT_EQ(j["problems"].size(), 1U);
  EXPECT_EQ(j["problems"][0], "no usable GPU: no CUDA device found");
  EXPECT_EQ(j["tools"][1]["found"], false);

  findings.device = testing::h200();
  findings.device_error.reset();
  json ready = to_json(findings);
  EXPECT_TRUE(ready["ready"].get<bool>());
  EXPECT_EQ(ready["device"]["name"], "NVIDIA H200");
  EXPECT_TRUE(ready["calibration"].is_null());
  findings.calibration = "computed from SM count and clock (`kopt calibrate` measures them)";
  EXPECT_EQ(to_json(findings)["calibration"], *findings.calibration);
}

}  // namespace json_test
}  // namespace kopt
