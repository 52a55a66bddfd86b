// From the worker's `energy` reply to an EnergyReport; option checks; which size case is measured.
#include "eval/energy_reply.hpp"

#include <gtest/gtest.h>

#include "eval_test_support.hpp"

namespace kopt {
namespace energy_reply_test {

using nlohmann::json;

json measurement(double median_jpc, bool graph) {
  return json{
      {"trials", json::array({{{"joules", 2.0},
                               {"seconds", 2.05},
                               {"calls", 1000},
                               {"joules_per_call", 0.002},
                               {"avg_watts", 975.6},
                               {"idle_watts", 96.0}}})},
      {"joules_per_call", {{"min", median_jpc * 0.9}, {"median", median_jpc}, {"max", median_jpc * 1.1}}},
      {"avg_watts", 400.0},
      {"idle_watts", 96.0},
      {"seconds", 2.05},
      {"calls", 1000},
      {"graph", graph},
      {"calls_per_graph", graph ? 1000 : 0},
      {"replays", graph ? 1 : 0},
      {"probe_call_us", 2000.0},
      {"sampled_watts", {{"min", 380.0}, {"median", 400.0}, {"max", 410.0}}},
      {"sm_clock_mhz", {{"min", 1755.0}, {"median", 1980.0}, {"max", 1980.0}}},
      {"memory_clock_mhz", {{"min", 3201.0}, {"median", 3201.0}, {"max", 3201.0}}},
      {"temperature_c", {{"start", 41.0}, {"end", nullptr}}},
      {"samples", 21},
      {"note", graph ? "" : "could not be captured"}};
}

worker::Reply ok_reply() {
  worker::Reply reply;
  reply.body = json{{"reply", "energy"},
                    {"id", 1},
                    {"size", "large"},
                    {"candidate", {{"status", "ok"}, {"message", ""}, {"energy", measurement(0.002, true)}}},
                    {"reference", measurement(0.004, false)},
                    {"sampling", "every 100 ms"}};
  return reply;
}

TEST(EnergyReply, MapsBothMeasurementsAndTheRatio) {
  EnergyReport report;
  ASSERT_TRUE(apply_energy_reply(ok_reply(), report).ok());
  EXPECT_EQ(report.status, CandidateStatus::ok);
  EXPECT_EQ(report.size, "large");
  ASSERT_TRUE(report.candidate_energy.has_value());
  ASSERT_TRUE(report.reference_energy.has_value());
  EnergyMeasurement const& c = *report.candidate_energy;
  EXPECT_DOUBLE_EQ(c.joules_per_call.median, 0.002);
  EXPECT_DOUBLE_EQ(c.joules_per_call.min, 0.002 * 0.9);
  ASSERT_EQ(c.trials.size(), 1U);
  EXPECT_EQ(c.trials[0].calls, 1000);
  EXPECT_DOUBLE_EQ(c.trials[0].idle_watts, 96.0);
  EXPECT_TRUE(c.graph);
  EXPECT_EQ(c.calls_per_graph, 1000);
  EXPECT_DOUBLE_EQ(c.sm_clock_mhz.min, 1755.0);
  EXPECT_DOUBLE_EQ(c.window_s, 2.05);
  ASSERT_TRUE(c.temperature_start_c.has_value());
  EXPECT_DOUBLE_EQ(*c.temperature_start_c, 41.0);
  EXPECT_FALSE(c.temperature_end_c.has_value());
  EXPECT_FALSE(report.reference_energy->graph);
  EXPECT_EQ(report.reference_energy->note, "could not be captured");
  ASSERT_TRUE(report.ratio.has_value());
  EXPECT_DOUBLE_EQ(*report.ratio, 0.5);
  EXPECT_EQ(report.sampling, "every 100 ms");
}

TEST(EnergyReply, NoReferenceMeansNoRatio) {
  worker::Reply reply = ok_reply();
  reply.body.erase("reference");
  EnergyReport report;
  ASSERT_TRUE(apply_energy_reply(reply, report).ok());
  EXPECT_TRUE(report.candidate_energy.has_value());
  EXPECT_FALSE(report.reference_energy.has_value());
  EXPECT_FALSE(report.ratio.has_value());
}

TEST(EnergyReply, UnavailableNvmlIsAnErrorWithTheWorkersCodeAndMessage) {
  worker::Reply reply;
  reply.body =
      json{{"reply", "energy"},
           {"id", 1},
           {"error",
            {{"code", "not_found"},
             {"message", "energy: unavailable: NVML library 'libnvidia-ml.so.1' could not be loaded"}}}};
  EnergyReport report;
  auto status = apply_energy_reply(reply, report);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::not_found);
  EXPECT_NE(status.error().message.find("energy: unavailable"), std::string::npos);
}

TEST(EnergyReply, CandidateFailureKeepsItsStatusWithoutMeasurements) {
  worker::Reply reply;
  reply.body = json{{"reply", "energy"},
                    {"id", 1},
                    {"size", "large"},
                    {"candidate", {{"status", "runtime_error"}, {"message", "cudaErrorIllegalAddress"}}},
                    {"restart", true}};
  EnergyReport report;
  ASSERT_TRUE(apply_energy_reply(reply, report).ok());
  EXPECT_EQ(report.status, CandidateStatus::runtime_error);
  EXPECT_EQ(report.message, "cudaErrorIllegalAddress");
  EXPECT_FALSE(report.candidate_energy.has_value());
}

TEST(EnergyReply, ADeadWorkerIsARuntimeErrorOrATimeout) {
  worker::Reply died;
  died.worker_died = true;
  died.stderr_tail = "Segmentation fault";
  EnergyReport report;
  ASSERT_TRUE(apply_energy_reply(died, report).ok());
  EXPECT_EQ(report.status, CandidateStatus::runtime_error);
  EXPECT_NE(report.message.find("Segmentation fault"), std::string::npos);

  worker::Reply hung;
  hung.worker_died = true;
  hung.body =
      json{{"reply", "energy"}, {"id", 1}, {"fatal", "timeout"}, {"message", "the candidate ran past 60 s"}};
  EnergyReport timed_out;
  ASSERT_TRUE(apply_energy_reply(hung, timed_out).ok());
  EXPECT_EQ(timed_out.status, CandidateStatus::timeout);
  EXPECT_EQ(timed_out.message, "the candidate ran past 60 s");

  // A last line kopt cannot read is no timeout verdict: the death is a runtime error.
  worker::Reply garbled = hung;
  garbled.body.erase("message");
  EnergyReport garbled_report;
  ASSERT_TRUE(apply_energy_reply(garbled, garbled_report).ok());
  EXPECT_EQ(garbled_report.status, CandidateStatus::runtime_error);
}

TEST(EnergyReply, AMeasurementWithAMissingFieldIsAWorkerErrorNamingIt) {
  worker::Reply reply = ok_reply();
  reply.body["reference"].erase("idle_watts");
  EnergyReport report;
  auto status = apply_energy_reply(reply, report);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::worker_error);
  EXPECT_EQ(status.error().message, "malformed energy reply: reference.idle_watts: missing");
}

TEST(EnergyReply, AReplyWithoutCandidateIsAWorkerError) {
  worker::Reply reply;
  reply.body = json{{"reply", "energy"}, {"id", 1}, {"size", "large"}};
  EnergyReport report;
  auto status = apply_energy_reply(reply, report);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::worker_error);
  EXPECT_EQ(status.error().message, "malformed energy reply: candidate: missing");
}

TEST(EnergyOptionsCheck, RejectsOutOfRangeValuesNamingTheOption) {
  EXPECT_TRUE(check_energy_options(EnergyOptions{}).ok());
  EnergyOptions o;
  o.window_s = 0.0;
  auto bad_window = check_energy_options(o);
  ASSERT_FALSE(bad_window.ok());
  EXPECT_EQ(bad_window.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(bad_window.error().message.find("window_s"), std::string::npos);
  o = EnergyOptions{};
  o.cooldown_s = -1.0;
  EXPECT_NE(check_energy_options(o).error().message.find("cooldown_s"), std::string::npos);
  o = EnergyOptions{};
  o.trials = 0;
  EXPECT_NE(check_energy_options(o).error().message.find("trials"), std::string::npos);
}

TEST(EnergySize, LargestTimedByDefaultOrTheNamedOne) {
  TaskSpec const task = eval_test::vector_add_task();
  ASSERT_NE(energy_size(task, ""), nullptr);
  EXPECT_EQ(energy_size(task, "")->name, "large");
  ASSERT_NE(energy_size(task, "medium"), nullptr);
  EXPECT_EQ(energy_size(task, "medium")->name, "medium");
  EXPECT_EQ(energy_size(task, "huge"), nullptr);
}

}  // namespace energy_reply_test
}  // namespace kopt
