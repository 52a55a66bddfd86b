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

// One result buffer of a reference results file: its length and the facts the comparison needs, derived
// from the clear bytes before masking (the worker never sees them in clear before a comparison).
struct ResultBufferFacts {
  std::uint64_t bytes = 0;
  double scale = 0.0;   // max |ref| over finite values
  bool varies = false;  // two distinct values
};

// One trial's reference results computed outside the worker (a PyTorch reference, docs/pytorch.md): a
// file holding the output buffers' bytes in signature order, XOR-masked with the keystream of `key`
// (docs/verification.md, "Answers out of reach").
struct ReferenceResultsFile {
  std::string size;        // the size case
  std::uint64_t seed = 0;  // the trial's own seed (the request's seed mixed with size index and trial)
  int trial = 0;
  std::string path;
  std::uint64_t key = 0;
  double call_ms = 0.0;  // one reference call, for the candidate's watchdog deadline
  std::vector<ResultBufferFacts> buffers;
};

struct EvaluateRequest {
  std::int64_t id = 0;
  TaskSelection selection;
  TimingTier tier = TimingTier::confirm;
  bool time_baseline = true;
  DeadlineScaling timeout;
  // Exactly one of the two: the task's reference launcher, or the results of a reference that runs
  // outside the worker, one file per trial the evaluation uses (no reference is timed then).
  std::optional<ArtifactRef> reference;
  std::vector<ReferenceResultsFile> reference_results;
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
