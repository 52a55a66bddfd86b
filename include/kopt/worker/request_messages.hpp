// The requests kopt sends to kopt-worker, typed on both sides of the worker protocol
// (docs/worker-protocol.md). kopt builds a request struct and writes it with to_json; the worker reads it
// with the matching parse_*_request, which fails closed like every reader of the protocol: a required
// field that is missing or of the wrong type, or a field the reader does not know, is an error naming the
// request and the field ("malformed evaluate request: timeout.floor_ms: missing"). Optional fields are
// std::optional and may be absent or null on the wire. The wire keys are those of protocol 2.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kopt/measure.hpp"
#include "kopt/result.hpp"
#include "kopt/worker/protocol.hpp"

namespace kopt::worker {

// What every request that runs code on a task names: the task, its size cases and the seed of the inputs.
struct TaskSelection {
  std::string task_dir;
  std::vector<std::string> sizes;  // size case names; empty: all of the task's
  std::uint64_t seed = 0;
};

// The candidate's watchdog deadline per call: factor × the reference's call time, clamped to
// [floor_ms, ceiling_ms].
struct DeadlineScaling {
  double factor = 50.0;
  double floor_ms = 2000.0;
  double ceiling_ms = 60000.0;
};

// A fixed watchdog deadline per call (calls outside verification: single_trial, energy).
struct DeadlineCeiling {
  double ceiling_ms = 60000.0;
};

struct HelloRequest {
  std::int64_t id = 0;
  int protocol = kProtocolVersion;
};

struct EvaluateRequest {
  std::int64_t id = 0;
  TaskSelection selection;
  TimingTier tier = TimingTier::confirm;
  bool time_baseline = true;
  DeadlineScaling timeout;
  ArtifactRef reference;
  std::optional<ArtifactRef> baseline;  // the task's vendor baseline; optional
  ArtifactRef candidate;
};

struct CheckTaskRequest {
  std::int64_t id = 0;
  TaskSelection selection;
  TimingTier tier = TimingTier::confirm;
  DeadlineScaling timeout;
  ArtifactRef reference;
  std::optional<ArtifactRef> baseline;  // optional
};

struct SingleTrialRequest {
  std::int64_t id = 0;
  TaskSelection selection;  // the first selected size case runs
  DeadlineCeiling timeout;
  ArtifactRef candidate;
  std::optional<std::string> nvtx_range;  // optional: the NVTX range the candidate's call is wrapped in
};

struct CalibrateRequest {
  std::int64_t id = 0;
};

struct EnergyRequest {
  std::int64_t id = 0;
  TaskSelection selection;  // the first selected size case is measured
  DeadlineCeiling timeout;
  double window_s = 2.0;
  double cooldown_s = 1.0;
  int trials = 3;
  ArtifactRef candidate;
  std::optional<ArtifactRef> reference;  // optional: measure the task's reference too
};

struct ShutdownRequest {
  std::int64_t id = 0;
};

nlohmann::json to_json(HelloRequest const& request);
nlohmann::json to_json(EvaluateRequest const& request);
nlohmann::json to_json(CheckTaskRequest const& request);
nlohmann::json to_json(SingleTrialRequest const& request);
nlohmann::json to_json(CalibrateRequest const& request);
nlohmann::json to_json(EnergyRequest const& request);
nlohmann::json to_json(ShutdownRequest const& request);

Result<HelloRequest> parse_hello_request(nlohmann::json const& body);
Result<EvaluateRequest> parse_evaluate_request(nlohmann::json const& body);
Result<CheckTaskRequest> parse_check_task_request(nlohmann::json const& body);
Result<SingleTrialRequest> parse_single_trial_request(nlohmann::json const& body);
Result<CalibrateRequest> parse_calibrate_request(nlohmann::json const& body);
Result<EnergyRequest> parse_energy_request(nlohmann::json const& body);
Result<ShutdownRequest> parse_shutdown_request(nlohmann::json const& body);

// The hello exchange's check, on both sides: an error naming both versions unless `theirs` is ours.
Status check_protocol_version(int theirs, char const* whose);

}  // namespace kopt::worker
