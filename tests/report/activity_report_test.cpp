// Kernel activity in `kopt eval` reports: the JSON "activity" block round-trips (and documents without it
// still parse), and the text shows a short note for a launcher call of several launches.
#include <gtest/gtest.h>

#include "kopt/report.hpp"
#include "report/sample_reports.hpp"

namespace kopt {
namespace activity_report_test {

using nlohmann::json;

KernelActivity three_launches() {
  KernelActivity a;
  a.launches = 3;
  a.kernel_us = 4.1;
  a.span_us = 8.0;
  a.call_us = 10.0;
  a.memsets = 1;
  a.kernels = {{"softmax_rows(float*, float const*, int)", 2, 3.0}, {"max_reduce", 1, 1.1}};
  return a;
}

EvalReport report_with_activity() {
  EvalReport report = testing::sample_eval_report();
  CandidateReport& launcher = report.candidates[1];  // launcher mode in the sample
  launcher.sizes[0].activity = three_launches();
  launcher.sizes[0].reference_activity = three_launches();
  launcher.sizes[0].reference_activity->call_us = std::nullopt;
  launcher.phases.activity_ms = 1.25;
  KernelActivity kernel_mode;
  kernel_mode.launches = 1;
  kernel_mode.from_cupti = false;
  report.candidates[0].sizes[0].activity = kernel_mode;
  return report;
}

TEST(ActivityReportJson, RoundTripKeepsEveryField) {
  json const first = to_json(report_with_activity());
  auto decoded = eval_report_from_json(json::parse(first.dump(2)));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(to_json(*decoded), first);
  SizeResult const& size = decoded->candidates[1].sizes[0];
  ASSERT_TRUE(size.activity.has_value());
  EXPECT_EQ(size.activity->launches, 3);
  EXPECT_DOUBLE_EQ(*size.activity->kernel_us, 4.1);
  EXPECT_DOUBLE_EQ(*size.activity->span_us, 8.0);
  EXPECT_DOUBLE_EQ(*size.activity->call_us, 10.0);
  EXPECT_EQ(size.activity->memsets, 1);
  ASSERT_EQ(size.activity->kernels.size(), 2u);
  EXPECT_EQ(size.activity->kernels[0].name, "softmax_rows(float*, float const*, int)");
  EXPECT_EQ(size.activity->kernels[0].count, 2);
  ASSERT_TRUE(size.reference_activity.has_value());
  EXPECT_FALSE(size.reference_activity->call_us.has_value());
  EXPECT_DOUBLE_EQ(decoded->candidates[1].phases.activity_ms, 1.25);
  ASSERT_TRUE(decoded->candidates[0].sizes[0].activity.has_value());
  EXPECT_FALSE(decoded->candidates[0].sizes[0].activity->from_cupti);
  EXPECT_FALSE(decoded->candidates[0].sizes[1].activity.has_value());
  EXPECT_EQ(first["candidates"][0]["sizes"][0]["activity"]["source"], "kernel_mode");
  EXPECT_TRUE(first["candidates"][0]["sizes"][1]["activity"].is_null());
}

TEST(ActivityReportJson, DocumentsWithoutActivityStillParse) {
  json j = to_json(testing::sample_eval_report());
  for (auto& candidate : j["candidates"]) {
    candidate["phases"].erase("activity_ms");
    for (auto& size : candidate["sizes"]) {
      size.erase("activity");
      size.erase("reference_activity");
    }
  }
  auto decoded = eval_report_from_json(j);
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_FALSE(decoded->candidates[0].sizes[0].activity.has_value());
  EXPECT_DOUBLE_EQ(decoded->candidates[0].phases.activity_ms, 0.0);
}

TEST(ActivityReportJson, AMalformedBlockNamesTheField) {
  json j = to_json(report_with_activity());
  j["candidates"][1]["sizes"][0]["activity"]["launches"] = "three";
  auto decoded = eval_report_from_json(j);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.error().message.find("candidates[1].sizes[0].activity.launches"), std::string::npos)
      << decoded.error().message;
  j = to_json(report_with_activity());
  j["candidates"][1]["sizes"][0]["activity"]["source"] = "nsys";
  decoded = eval_report_from_json(j);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.error().message.find("activity.source"), std::string::npos) << decoded.error().message;
}

TEST(ActivityReportText, LauncherWithSeveralLaunchesGetsANote) {
  EvalReport const report = report_with_activity();
  std::string const text = render_eval(report);
  std::string const size = report.candidates[1].sizes[0].size;
  EXPECT_NE(text.find("note: size '" + size + "': 3 launches, kernels busy 41 % of the call"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("1 launches"), std::string::npos) << text;  // kernel mode: nothing to say
  EvalReport plain = testing::sample_eval_report();
  EXPECT_EQ(render_eval(plain).find("launches"), std::string::npos);
}

}  // namespace activity_report_test
}  // namespace kopt
