// The worker's replies and events other than the evaluate verdict (verdict_messages_test in tests/eval
// covers that one): written by the worker with to_json, read back by kopt, which refuses a missing or
// mistyped required field and any field it does not know, naming the reply and the field.
#include "kopt/worker/reply_messages.hpp"

#include <gtest/gtest.h>

#include "kopt/worker/protocol.hpp"
#include "message_test_support.hpp"

namespace kopt::worker {
namespace reply_messages_test {

using message_test::expect_each_required_field;
using nlohmann::json;

DeviceInfo device() {
  DeviceInfo d;
  d.index = 1;
  d.name = "NVIDIA H200";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sm_count = 132;
  d.l2_bytes = 52428800;
  d.memory_bytes = 150011707392;
  d.clock_khz = 1980000;
  d.driver_version = 13000;
  d.runtime_version = 13000;
  d.uuid = "GPU-0b3c";
  d.ceilings = {4.8e12, 6.7e13, 9.9e14};
  d.isolation = "netns+rlimits+landlock+seccomp";
  return d;
}

SampleStats stats(double median) {
  return SampleStats{10, median, median * 0.9, median * 1.2, median, median * 0.95, median * 1.05};
}

TimingFields timing(double median, bool graph) {
  TimingFields t;
  t.us = stats(median);
  if (graph) t.graph_us = stats(median * 0.8);
  t.device_wide = graph;
  t.warmup_ms = 12.5;
  return t;
}

CheckTaskReply check_task_reply() {
  CheckTaskReply r;
  r.id = 2;
  CheckTaskSize timed;
  timed.size = "large";
  timed.deterministic = false;
  timed.reference_constant = true;
  timed.baseline_status = "ok";
  timed.reference = timing(300.0, true);
  timed.baseline = timing(250.0, false);
  timed.note = "reference is not deterministic on 'c'";
  CheckTaskSize verify_only;
  verify_only.size = "odd";
  verify_only.verify_only = true;
  r.sizes = {timed, verify_only};
  return r;
}

EnergyFields energy(double joules_per_call) {
  EnergyFields e;
  e.trials = {EnergyWindowFields{10.0, 2.0, 1000, joules_per_call, 5.0, 60.0}};
  e.joules_per_call = {joules_per_call * 0.9, joules_per_call, joules_per_call * 1.1};
  e.avg_watts = 400.0;
  e.idle_watts = 60.0;
  e.seconds = 2.0;
  e.calls = 1000;
  e.graph = true;
  e.calls_per_graph = 500;
  e.replays = 2;
  e.probe_call_us = 2000.0;
  e.sampled_watts = {380.0, 400.0, 420.0};
  e.sm_clock_mhz = {1900.0, 1980.0, 1980.0};
  e.memory_clock_mhz = {2619.0, 2619.0, 2619.0};
  e.temperature_start_c = 41.0;
  e.temperature_end_c = std::nullopt;  // NVML had no reading: null on the wire
  e.samples = 20;
  e.note = "graph of 500 calls";
  return e;
}

EnergyReply energy_reply() {
  EnergyReply r;
  r.id = 5;
  r.size = "large";
  r.candidate_energy = energy(0.01);
  r.reference_energy = energy(0.02);
  r.sampling = "every 100 ms";
  return r;
}

TEST(ReplyMessages, HelloRoundTripsTheWholeDevice) {
  HelloReply const sent{4, kProtocolVersion, device(), 3.5};
  auto read = parse_hello_reply(to_json(sent));
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->protocol, kProtocolVersion);
  EXPECT_EQ(read->device.uuid, "GPU-0b3c");
  EXPECT_EQ(read->device.memory_bytes, 150011707392);
  EXPECT_DOUBLE_EQ(read->device.ceilings.tensor_flops_per_s, 9.9e14);
  EXPECT_DOUBLE_EQ(read->idle_sync_us, 3.5);
  EXPECT_EQ(to_json(*read), to_json(sent));
}

TEST(ReplyMessages, EveryReplyAndEventRoundTrips) {
  ErrorReply const error{"evaluate", 3, ErrorCode::invalid_spec, "size 'huge' is not in task.toml", true};
  auto const error_read = parse_error_reply(to_json(error));
  ASSERT_TRUE(error_read) << error_read.error().message;
  EXPECT_EQ(error_read->code, ErrorCode::invalid_spec);
  EXPECT_TRUE(error_read->restart);
  EXPECT_EQ(to_json(*error_read), to_json(error));

  FatalReply const fatal{"evaluate", 3, "timeout", "the candidate ran past 2000 ms"};
  auto const fatal_read = parse_fatal_reply(to_json(fatal));
  ASSERT_TRUE(fatal_read) << fatal_read.error().message;
  EXPECT_EQ(to_json(*fatal_read), to_json(fatal));

  auto const progress = parse_progress_event(to_json(ProgressEvent{"verify large"}));
  ASSERT_TRUE(progress) << progress.error().message;
  EXPECT_EQ(progress->what, "verify large");

  auto const check = parse_check_task_reply(to_json(check_task_reply()));
  ASSERT_TRUE(check) << check.error().message;
  ASSERT_EQ(check->sizes.size(), 2u);
  EXPECT_FALSE(check->sizes[0].deterministic);
  ASSERT_TRUE(check->sizes[0].reference);
  ASSERT_TRUE(check->sizes[0].reference->graph_us);
  EXPECT_FALSE(check->sizes[0].baseline->graph_us);
  EXPECT_FALSE(check->sizes[1].reference);
  EXPECT_FALSE(check->sizes[1].baseline_status);
  EXPECT_EQ(to_json(*check), to_json(check_task_reply()));

  SingleTrialReply trial;
  trial.id = 6;
  trial.candidate = VerdictFields{CandidateStatus::runtime_error, "illegal address", 0.0, 0.0, 0};
  trial.size = "small";
  trial.restart = true;
  auto const trial_read = parse_single_trial_reply(to_json(trial));
  ASSERT_TRUE(trial_read) << trial_read.error().message;
  EXPECT_EQ(trial_read->candidate.status, CandidateStatus::runtime_error);
  EXPECT_EQ(to_json(*trial_read), to_json(trial));

  CalibrateReply const calibrate{7, 4.0e12, 6.0e13, 9.0e14, 8.0e14, {"FP16: cublasGemmEx failed"}, 900.0};
  auto const calibrate_read = parse_calibrate_reply(to_json(calibrate));
  ASSERT_TRUE(calibrate_read) << calibrate_read.error().message;
  EXPECT_EQ(calibrate_read->notes, calibrate.notes);
  EXPECT_EQ(to_json(*calibrate_read), to_json(calibrate));

  auto const energy_read = parse_energy_reply(to_json(energy_reply()));
  ASSERT_TRUE(energy_read) << energy_read.error().message;
  ASSERT_TRUE(energy_read->candidate_energy);
  EXPECT_EQ(energy_read->candidate_energy->temperature_start_c, 41.0);
  EXPECT_FALSE(energy_read->candidate_energy->temperature_end_c);
  EXPECT_EQ(to_json(*energy_read), to_json(energy_reply()));
}

TEST(ReplyMessages, TheWireShapesAreProtocol2s) {
  // Optional parts are left out rather than written as null where protocol 2 left them out.
  json const verify_only = to_json(check_task_reply())["sizes"][1];
  EXPECT_FALSE(verify_only.contains("reference"));
  EXPECT_FALSE(verify_only.contains("baseline_status"));
  EXPECT_FALSE(to_json(check_task_reply())["sizes"][0]["baseline"].contains("graph_us"));
  SingleTrialReply trial;
  EXPECT_FALSE(to_json(trial).contains("restart"));
  json const energy_wire = to_json(energy_reply());
  EXPECT_EQ(energy_wire["candidate"]["status"], "ok");
  EXPECT_TRUE(energy_wire["candidate"].contains("energy"));
  EXPECT_TRUE(energy_wire["candidate"]["energy"]["temperature_c"]["end"].is_null());
  EXPECT_EQ(to_json(ErrorReply{"energy", 1, ErrorCode::not_found, "energy: unavailable: no NVML"}),
            (json{{"reply", "energy"},
                  {"id", 1},
                  {"error", {{"code", "not_found"}, {"message", "energy: unavailable: no NVML"}}}}));
}

TEST(ReplyMessages, EachMissingRequiredFieldIsRefusedByName) {
  EXPECT_GT(expect_each_required_field(to_json(HelloReply{0, kProtocolVersion, device(), 1.0}),
                                       parse_hello_reply, "hello reply", {}),
            18u);
  ErrorReply const restarting{"energy", 1, ErrorCode::worker_error, "the task's reference failed", true};
  EXPECT_EQ(expect_each_required_field(to_json(restarting), parse_error_reply, "error reply", {"restart"}),
            6u);
  EXPECT_EQ(expect_each_required_field(to_json(FatalReply{"evaluate", 1, "timeout", "ran past"}),
                                       parse_fatal_reply, "fatal reply", {}),
            4u);
  EXPECT_EQ(expect_each_required_field(to_json(ProgressEvent{"time large"}), parse_progress_event,
                                       "progress event", {}),
            2u);
  EXPECT_GT(
      expect_each_required_field(to_json(check_task_reply()), parse_check_task_reply, "check_task reply",
                                 {"sizes[0].baseline_status", "sizes[0].reference", "sizes[0].baseline",
                                  "sizes[0].reference.graph_us"}),
      20u);
  SingleTrialReply trial;
  trial.size = "small";
  trial.restart = true;
  EXPECT_EQ(expect_each_required_field(to_json(trial), parse_single_trial_reply, "single_trial reply",
                                       {"size", "restart"}),
            10u);
  CalibrateReply const calibrate{7, 4.0e12, 6.0e13, 9.0e14, 8.0e14, {}, 900.0};
  EXPECT_EQ(expect_each_required_field(to_json(calibrate), parse_calibrate_reply, "calibrate reply", {}), 8u);
  EnergyReply restarting_energy = energy_reply();
  restarting_energy.restart = true;
  EXPECT_GT(expect_each_required_field(to_json(restarting_energy), parse_energy_reply, "energy reply",
                                       {"candidate.energy", "reference", "sampling", "restart"}),
            50u);
}

TEST(ReplyMessages, AMistypedOrUnknownFieldOrStatusIsRefusedByName) {
  json hello = to_json(HelloReply{0, kProtocolVersion, device(), 1.0});
  hello["device"]["sm_count"] = 132.5;
  auto const read_hello = parse_hello_reply(hello);
  ASSERT_FALSE(read_hello);
  EXPECT_EQ(read_hello.error().message,
            "malformed hello reply: device.sm_count: expected an integer, got number");

  json check = to_json(check_task_reply());
  check["sizes"][1]["deterministic"] = "yes";
  auto const read_check = parse_check_task_reply(check);
  ASSERT_FALSE(read_check);
  EXPECT_EQ(read_check.error().message,
            "malformed check_task reply: sizes[1].deterministic: expected true or false, got string");

  json energy_wire = to_json(energy_reply());
  energy_wire["candidate"]["status"] = "fast";
  auto const read_energy = parse_energy_reply(energy_wire);
  ASSERT_FALSE(read_energy);
  EXPECT_EQ(read_energy.error().message, "malformed energy reply: candidate.status: unknown status 'fast'");

  json calibrate = to_json(CalibrateReply{});
  calibrate["hbm_bytes_per_s"] = 1.0;
  auto const read_calibrate = parse_calibrate_reply(calibrate);
  ASSERT_FALSE(read_calibrate);
  EXPECT_EQ(read_calibrate.error().message, "malformed calibrate reply: hbm_bytes_per_s: unknown field");

  auto const wrong_reply = parse_calibrate_reply(to_json(check_task_reply()));
  ASSERT_FALSE(wrong_reply);
  EXPECT_EQ(wrong_reply.error().message,
            "malformed calibrate reply: reply: expected \"calibrate\", got \"check_task\"");
}

TEST(ReplyMessages, AnErrorCodeKoptDoesNotKnowIsAWorkerError) {
  EXPECT_EQ(error_code_from_name("invalid_spec"), ErrorCode::invalid_spec);
  EXPECT_EQ(error_code_from_name("no_gpu"), ErrorCode::no_gpu);
  EXPECT_EQ(error_code_from_name("gpu_on_fire"), ErrorCode::worker_error);
}

}  // namespace reply_messages_test
}  // namespace kopt::worker
