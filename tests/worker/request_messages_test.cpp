// The requests kopt sends the worker: written by to_json, read back by the worker's parse_*_request,
// which refuses a missing or mistyped required field and any field it does not know, naming both.
#include "kopt/worker/request_messages.hpp"

#include <gtest/gtest.h>

#include "message_test_support.hpp"

namespace kopt::worker {
namespace request_messages_test {

using message_test::expect_each_required_field;
using nlohmann::json;

ArtifactRef kernel_artifact() {
  ArtifactRef ref;
  ref.mode = "kernel";
  ref.path = "/cache/candidate.cubin";
  ref.symbol = "_Z10vector_addPKfS0_Pfi";
  ref.grid = {"(n + 255) / 256", "1", "1"};
  ref.block = {"256", "1", "1"};
  ref.shared_bytes = "0";
  ref.param_sizes = {8, 8, 8, 4, 8};
  ref.arguments = {{0, "", ""}, {1, "", ""}, {2, "", ""}, {3, "", ""}, {-1, "i64", "n / 2"}};
  return ref;
}

ArtifactRef launcher_artifact(std::string const& path) {
  ArtifactRef ref;
  ref.mode = "launcher";
  ref.path = path;
  ref.symbol = "kopt_trampoline_reference";
  return ref;
}

TaskSelection selection() {
  return TaskSelection{"/tasks/vector_add", {"small", "large"}, 18446744073709551557ULL};
}

EvaluateRequest evaluate_request() {
  EvaluateRequest r;
  r.id = 7;
  r.selection = selection();
  r.tier = TimingTier::screen;
  r.time_baseline = false;
  r.timeout = DeadlineScaling{20.0, 1500.0, 30000.0};
  r.reference = launcher_artifact("/cache/reference.so");
  r.baseline = launcher_artifact("/cache/baseline.so");
  r.candidate = kernel_artifact();
  return r;
}

CheckTaskRequest check_task_request() {
  CheckTaskRequest r;
  r.id = 3;
  r.selection = selection();
  r.timeout = DeadlineScaling{50.0, 2000.0, 60000.0};
  r.reference = launcher_artifact("/cache/reference.so");
  r.baseline = launcher_artifact("/cache/baseline.so");
  return r;
}

SingleTrialRequest single_trial_request() {
  SingleTrialRequest r;
  r.id = 4;
  r.selection = selection();
  r.timeout.ceiling_ms = 1.2e6;
  r.candidate = kernel_artifact();
  r.nvtx_range = "kopt_candidate";
  return r;
}

EnergyRequest energy_request() {
  EnergyRequest r;
  r.id = 5;
  r.selection = TaskSelection{"/tasks/sgemm", {"large"}, 1};
  r.timeout.ceiling_ms = 60000.0;
  r.window_s = 0.5;
  r.cooldown_s = 0.25;
  r.trials = 4;
  r.candidate = kernel_artifact();
  r.reference = launcher_artifact("/cache/reference.so");
  return r;
}

TEST(RequestMessages, EvaluateRoundTrips) {
  EvaluateRequest const sent = evaluate_request();
  auto read = parse_evaluate_request(to_json(sent));
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->id, 7);
  EXPECT_EQ(read->selection.task_dir, "/tasks/vector_add");
  EXPECT_EQ(read->selection.sizes, (std::vector<std::string>{"small", "large"}));
  EXPECT_EQ(read->selection.seed, 18446744073709551557ULL);
  EXPECT_EQ(read->tier, TimingTier::screen);
  EXPECT_FALSE(read->time_baseline);
  EXPECT_DOUBLE_EQ(read->timeout.factor, 20.0);
  EXPECT_DOUBLE_EQ(read->timeout.floor_ms, 1500.0);
  EXPECT_DOUBLE_EQ(read->timeout.ceiling_ms, 30000.0);
  ASSERT_TRUE(read->reference);
  EXPECT_EQ(read->reference->path, "/cache/reference.so");
  EXPECT_TRUE(read->reference_results.empty());
  ASSERT_TRUE(read->baseline);
  EXPECT_EQ(read->baseline->path, "/cache/baseline.so");
  EXPECT_EQ(read->candidate.grid, kernel_artifact().grid);
  EXPECT_EQ(read->candidate.param_sizes, (std::vector<int>{8, 8, 8, 4, 8}));
  ASSERT_EQ(read->candidate.arguments.size(), 5u);
  EXPECT_EQ(read->candidate.arguments[2].parameter, 2);
  EXPECT_EQ(read->candidate.arguments[4].type, "i64");
  EXPECT_EQ(read->candidate.arguments[4].value, "n / 2");
  EXPECT_EQ(to_json(*read), to_json(sent));
}

TEST(RequestMessages, EveryRequestRoundTrips) {
  auto const hello = parse_hello_request(to_json(HelloRequest{}));
  ASSERT_TRUE(hello) << hello.error().message;
  EXPECT_EQ(hello->protocol, kProtocolVersion);

  auto const check = parse_check_task_request(to_json(check_task_request()));
  ASSERT_TRUE(check) << check.error().message;
  EXPECT_EQ(to_json(*check), to_json(check_task_request()));

  auto const trial = parse_single_trial_request(to_json(single_trial_request()));
  ASSERT_TRUE(trial) << trial.error().message;
  EXPECT_EQ(trial->nvtx_range, "kopt_candidate");
  EXPECT_DOUBLE_EQ(trial->timeout.ceiling_ms, 1.2e6);
  EXPECT_EQ(to_json(*trial), to_json(single_trial_request()));

  auto const calibrate = parse_calibrate_request(to_json(CalibrateRequest{9}));
  ASSERT_TRUE(calibrate) << calibrate.error().message;
  EXPECT_EQ(calibrate->id, 9);

  auto const energy = parse_energy_request(to_json(energy_request()));
  ASSERT_TRUE(energy) << energy.error().message;
  EXPECT_EQ(energy->trials, 4);
  EXPECT_DOUBLE_EQ(energy->window_s, 0.5);
  ASSERT_TRUE(energy->reference);
  EXPECT_EQ(to_json(*energy), to_json(energy_request()));

  auto const shutdown = parse_shutdown_request(to_json(ShutdownRequest{11}));
  ASSERT_TRUE(shutdown) << shutdown.error().message;
  EXPECT_EQ(shutdown->id, 11);
}

TEST(RequestMessages, TheWireKeysAreProtocol4s) {
  // kopt-worker builds of protocol 4 read these keys; a renamed key needs a new protocol version. A request
  // with a reference launcher carries no reference_results.
  json const wire = to_json(evaluate_request());
  for (char const* key : {"op", "id", "task_dir", "sizes", "seed", "tier", "time_baseline", "timeout",
                          "reference", "baseline", "candidate"}) {
    EXPECT_TRUE(wire.contains(key)) << key;
  }
  EXPECT_EQ(wire.size(), 11u);
  EXPECT_EQ(wire["op"], "evaluate");
  EXPECT_EQ(wire["tier"], "screen");
  EXPECT_EQ(to_json(energy_request())["timeout"], (json{{"ceiling_ms", 60000.0}}));
}

// A PyTorch task's evaluate request (docs/pytorch.md): no reference launcher, one results file per trial.
TEST(RequestMessages, ReferenceResultsRoundTripAndReplaceTheReference) {
  EvaluateRequest sent = evaluate_request();
  sent.reference.reset();
  sent.reference_results = {
      ReferenceResultsFile{"small",
                           18446744073709551557ULL,
                           0,
                           "/cache/torch/run-1/results/small-1-0.res",
                           0x9E3779B97F4A7C15ULL,
                           0.25,
                           {ResultBufferFacts{4096, 3.5, true}}},
      ReferenceResultsFile{"small",
                           2,
                           3,
                           "/cache/torch/run-1/results/small-2-3.res",
                           7,
                           0.0,
                           {ResultBufferFacts{8, 0.0, false}, ResultBufferFacts{16, 1.0, true}}}};
  json const wire = to_json(sent);
  EXPECT_TRUE(wire["reference"].is_null());
  auto read = parse_evaluate_request(wire);
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_FALSE(read->reference);
  ASSERT_EQ(read->reference_results.size(), 2u);
  EXPECT_EQ(read->reference_results[0].seed, 18446744073709551557ULL);
  EXPECT_EQ(read->reference_results[0].key, 0x9E3779B97F4A7C15ULL);
  EXPECT_EQ(read->reference_results[1].trial, 3);
  ASSERT_EQ(read->reference_results[1].buffers.size(), 2u);
  EXPECT_EQ(read->reference_results[1].buffers[1].bytes, 16u);
  EXPECT_TRUE(read->reference_results[1].buffers[1].varies);
  EXPECT_EQ(to_json(*read), wire);

  json both = wire;
  both["reference"] = to_json(evaluate_request()).at("reference");
  auto refused = parse_evaluate_request(both);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("exactly one"), std::string::npos) << refused.error().message;
  json neither = wire;
  neither.erase("reference_results");
  refused = parse_evaluate_request(neither);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, "malformed evaluate request: reference: missing");
  json no_key = wire;
  no_key["reference_results"][0].erase("key");
  refused = parse_evaluate_request(no_key);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("reference_results[0].key"), std::string::npos)
      << refused.error().message;
}

TEST(RequestMessages, AnAbsentOptionalBaselineReferenceOrRangeIsRead) {
  EvaluateRequest without_baseline = evaluate_request();
  without_baseline.baseline.reset();
  EXPECT_TRUE(to_json(without_baseline)["baseline"].is_null());
  auto const evaluate = parse_evaluate_request(to_json(without_baseline));
  ASSERT_TRUE(evaluate) << evaluate.error().message;
  EXPECT_FALSE(evaluate->baseline);

  SingleTrialRequest without_range = single_trial_request();
  without_range.nvtx_range.reset();
  EXPECT_FALSE(to_json(without_range).contains("nvtx_range"));
  auto const trial = parse_single_trial_request(to_json(without_range));
  ASSERT_TRUE(trial) << trial.error().message;
  EXPECT_FALSE(trial->nvtx_range);
}

TEST(RequestMessages, EachMissingRequiredFieldIsRefusedByName) {
  EXPECT_EQ(expect_each_required_field(to_json(HelloRequest{}), parse_hello_request, "hello request", {}),
            3u);
  EXPECT_GT(expect_each_required_field(to_json(evaluate_request()), parse_evaluate_request,
                                       "evaluate request", {"baseline"}),
            20u);
  EXPECT_GT(expect_each_required_field(to_json(check_task_request()), parse_check_task_request,
                                       "check_task request", {"baseline"}),
            10u);
  EXPECT_GT(expect_each_required_field(to_json(single_trial_request()), parse_single_trial_request,
                                       "single_trial request", {"nvtx_range"}),
            10u);
  EXPECT_EQ(expect_each_required_field(to_json(CalibrateRequest{}), parse_calibrate_request,
                                       "calibrate request", {}),
            2u);
  EXPECT_GT(expect_each_required_field(to_json(energy_request()), parse_energy_request, "energy request",
                                       {"reference"}),
            15u);
  EXPECT_EQ(
      expect_each_required_field(to_json(ShutdownRequest{}), parse_shutdown_request, "shutdown request", {}),
      2u);
}

TEST(RequestMessages, AMistypedOrUnknownFieldOrValueIsRefusedByName) {
  json request = to_json(evaluate_request());
  request["seed"] = -1;
  auto read = parse_evaluate_request(request);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message,
            "malformed evaluate request: seed: expected a non-negative integer, got -1");

  request = to_json(evaluate_request());
  request["timeout"]["ceiling_ms"] = "60s";
  read = parse_evaluate_request(request);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message,
            "malformed evaluate request: timeout.ceiling_ms: expected a number, got string");

  request = to_json(evaluate_request());
  request["tier"] = "thorough";
  read = parse_evaluate_request(request);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message,
            "malformed evaluate request: tier: expected \"screen\" or \"confirm\", got \"thorough\"");

  request = to_json(evaluate_request());
  request["candidate"]["mode"] = "module";
  read = parse_evaluate_request(request);
  ASSERT_FALSE(read);
  EXPECT_EQ(
      read.error().message,
      "malformed evaluate request: candidate.mode: expected \"kernel\" or \"launcher\", got \"module\"");

  request = to_json(evaluate_request());
  request["repeat"] = 3;
  read = parse_evaluate_request(request);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message, "malformed evaluate request: repeat: unknown field");

  request = to_json(evaluate_request());
  request["op"] = "check_task";
  read = parse_evaluate_request(request);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message,
            "malformed evaluate request: op: expected \"evaluate\", got \"check_task\"");

  auto const not_an_object = parse_calibrate_request(json::array());
  ASSERT_FALSE(not_an_object);
  EXPECT_EQ(not_an_object.error().message,
            "malformed calibrate request: message: expected an object, got array");
}

TEST(RequestMessages, ALauncherArtifactCarriesNoGeometry) {
  json const launcher = to_json(launcher_artifact("/cache/reference.so"));
  EXPECT_EQ(launcher.size(), 3u);
  CheckTaskRequest request = check_task_request();
  json wire = to_json(request);
  wire["reference"]["grid"] = json::array({"1"});
  auto const read = parse_check_task_request(wire);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message, "malformed check_task request: reference.grid: unknown field");
}

TEST(RequestMessages, AKernelArtifactCarriesItsArguments) {
  json const wire = to_json(kernel_artifact());
  ASSERT_TRUE(wire.contains("arguments"));
  EXPECT_EQ(wire["arguments"][4], (json{{"parameter", -1}, {"type", "i64"}, {"value", "n / 2"}}));
  json request = to_json(single_trial_request());
  request["candidate"]["arguments"][4].erase("type");
  auto const read = parse_single_trial_request(request);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message, "malformed single_trial request: candidate.arguments[4].type: missing");
}

TEST(ProtocolVersion, OnlyTheSameVersionIsAccepted) {
  EXPECT_TRUE(check_protocol_version(kProtocolVersion, "the GPU worker"));
  auto const older = check_protocol_version(kProtocolVersion - 1, "the GPU worker");
  ASSERT_FALSE(older);
  EXPECT_EQ(older.error().code, ErrorCode::worker_error);
  EXPECT_EQ(older.error().message, "the GPU worker speaks worker protocol " +
                                       std::to_string(kProtocolVersion - 1) + ", this side speaks " +
                                       std::to_string(kProtocolVersion));
  EXPECT_FALSE(check_protocol_version(kProtocolVersion + 1, "kopt"));
}

}  // namespace request_messages_test
}  // namespace kopt::worker
