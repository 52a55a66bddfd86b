// kopt.energy/1: the document round-trips exactly, errors name the field, and the table shows the
// numbers people compare (J/call with its range, power, clocks, temperature, the ratio).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "kopt/report.hpp"
#include "report/sample_reports.hpp"

namespace kopt {
namespace energy_report_test {

using nlohmann::json;

EnergyMeasurement measurement(double jpc, bool graph) {
  EnergyMeasurement m;
  for (int i = 0; i < 3; ++i) {
    double const j = jpc * (1.0 + 0.01 * (i - 1));
    m.trials.push_back(EnergyTrial{j * 1000.0, 2.1, 1000, j, j * 1000.0 / 2.1, 95.5 + i});
  }
  m.joules_per_call = ValueSpread{jpc * 0.99, jpc, jpc * 1.01};
  m.avg_watts = jpc * 1000.0 / 2.1;
  m.idle_watts = 96.5;
  m.window_s = 2.1;
  m.calls = 1000;
  m.graph = graph;
  m.calls_per_graph = graph ? 500 : 0;
  m.replays = graph ? 2 : 0;
  m.probe_call_us = 2100.0;
  m.sampled_watts = ValueSpread{300.0, 420.0, 431.0};
  m.sm_clock_mhz = ValueSpread{1755.0, 1980.0, 1980.0};
  m.memory_clock_mhz = ValueSpread{3201.0, 3201.0, 3201.0};
  m.temperature_start_c = 38.0;
  m.temperature_end_c = graph ? std::optional<double>(52.0) : std::nullopt;
  m.note =
      graph ? "" : "the reference could not be captured in a CUDA graph; the window is a plain loop of calls";
  return m;
}

EnergyReport sample_energy_report() {
  EnergyReport r;
  r.task = "vector_add";
  r.candidate = "vector_add_float4_kernel.cu";
  r.size = "large";
  r.device = testing::h200();
  r.mode = CandidateMode::launcher;
  r.window_s = 2.0;
  r.cooldown_s = 1.0;
  r.trials = 3;
  r.candidate_energy = measurement(0.0004, true);
  r.reference_energy = measurement(0.0005, false);
  r.ratio = 0.8;
  r.sampling = "power, SM and memory clocks and temperature read every 100 ms on a side thread";
  r.wall_ms = std::numeric_limits<double>::infinity();  // non-finite numbers survive as strings
  return r;
}

TEST(EnergyReportJson, RoundTripIsExact) {
  json const first = to_json(sample_energy_report());
  auto decoded = energy_report_from_json(json::parse(first.dump(2)));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(to_json(*decoded), first);
  EXPECT_EQ(decoded->mode, CandidateMode::launcher);
  ASSERT_TRUE(decoded->reference_energy.has_value());
  EXPECT_FALSE(decoded->reference_energy->temperature_end_c.has_value());
  EXPECT_EQ(decoded->candidate_energy->trials.size(), 3U);
  EXPECT_TRUE(std::isinf(decoded->wall_ms));
}

TEST(EnergyReportJson, ShapeHasSchemaStatusAndNulls) {
  EnergyReport r = sample_energy_report();
  r.status = CandidateStatus::compile_error;
  r.message = "compilation failed: x.cu(3): error";
  r.candidate_energy.reset();
  r.reference_energy.reset();
  r.ratio.reset();
  json const j = to_json(r);
  EXPECT_EQ(j["schema"], "kopt.energy/1");
  EXPECT_EQ(j["status"], "compile_error");
  EXPECT_TRUE(j["candidate_energy"].is_null());
  EXPECT_TRUE(j["ratio"].is_null());
  auto decoded = energy_report_from_json(j);
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(decoded->status, CandidateStatus::compile_error);
  EXPECT_FALSE(decoded->candidate_energy.has_value());
}

TEST(EnergyReportJson, ErrorsNameTheFieldPath) {
  json j = to_json(sample_energy_report());
  j["candidate_energy"]["trials"][1]["calls"] = "many";
  auto decoded = energy_report_from_json(j);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error().code, ErrorCode::invalid_spec);
  EXPECT_NE(decoded.error().message.find("candidate_energy.trials[1].calls"), std::string::npos)
      << decoded.error().message;

  json wrong_schema = to_json(sample_energy_report());
  wrong_schema["schema"] = "kopt.eval/1";
  auto rejected = energy_report_from_json(wrong_schema);
  ASSERT_FALSE(rejected.ok());
  EXPECT_NE(rejected.error().message.find("kopt.energy/1"), std::string::npos) << rejected.error().message;

  json bad_status = to_json(sample_energy_report());
  bad_status["status"] = "fast";
  auto bad = energy_report_from_json(bad_status);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("status"), std::string::npos) << bad.error().message;
}

TEST(EnergyRender, TableRowsAndRatio) {
  std::string const text = render_energy(sample_energy_report());
  EXPECT_NE(text.find("J/call median [min-max]"), std::string::npos) << text;
  EXPECT_NE(text.find("400 µJ [396-404]"), std::string::npos) << text;
  EXPECT_NE(text.find("500 µJ [495-505]"), std::string::npos) << text;
  EXPECT_NE(text.find("1980 [1755-1980]"), std::string::npos) << text;
  EXPECT_NE(text.find("38->52 C"), std::string::npos) << text;
  EXPECT_NE(text.find("38->? C"), std::string::npos) << text;
  EXPECT_NE(text.find("energy per call, candidate / reference: 0.800x"), std::string::npos) << text;
  EXPECT_NE(text.find("note: the reference could not be captured"), std::string::npos) << text;
  EXPECT_NE(text.find("graph"), std::string::npos);
  EXPECT_NE(text.find("loop"), std::string::npos);
  EXPECT_EQ(text.find("window 1:"), std::string::npos) << "per-window lines only with --verbose";
  std::string const verbose = render_energy(sample_energy_report(), RenderOptions{false, true});
  EXPECT_NE(verbose.find("candidate window 1: 0.396 J in 2.100 s, 1000 calls"), std::string::npos) << verbose;
}

TEST(EnergyRender, AFailedCandidateShowsItsStatusAndNoTable) {
  EnergyReport r = sample_energy_report();
  r.status = CandidateStatus::runtime_error;
  r.message = "cudaErrorIllegalAddress";
  std::string const text = render_energy(r);
  EXPECT_NE(text.find("runtime_error: cudaErrorIllegalAddress"), std::string::npos) << text;
  EXPECT_EQ(text.find("J/call"), std::string::npos) << text;
}

TEST(EnergyPerCallText, PicksAPrefixForThreeSignificantDigits) {
  EXPECT_EQ(energy_per_call_text(ValueSpread{0.76, 0.8, 0.84}), "800 mJ [760-840]");
  EXPECT_EQ(energy_per_call_text(ValueSpread{1.5, 1.5, 1.5}), "1.50 J");
  EXPECT_EQ(energy_per_call_text(ValueSpread{2e-9, 2.5e-9, 3e-9}), "2.50 nJ [2.00-3.00]");
  EXPECT_EQ(energy_per_call_text(ValueSpread{}), "0 J");
}

}  // namespace energy_report_test
}  // namespace kopt
