// The worker's replies other than the evaluate verdict (verdict_messages.hpp), and the lines it sends
// between request and reply, typed on both sides of the worker protocol (docs/worker-protocol.md). The
// worker fills a struct and writes it with to_json; kopt reads it with the matching parse_*, which fails
// closed: a required field that is missing or of the wrong type, or a field the reader does not know, is
// an error naming the reply and the field ("malformed hello reply: device.uuid: missing"). Optional fields
// are std::optional (or a flag that is false when absent) and may be absent or null on the wire; the wire
// keys are those of protocol 2.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kopt/device.hpp"
#include "kopt/result.hpp"
#include "kopt/worker/verdict_messages.hpp"

namespace kopt::worker {

struct HelloReply {
  std::int64_t id = 0;
  int protocol = 0;
  DeviceInfo device;
  double idle_sync_us = 0.0;  // a synchronize on an idle device, measured at start (0: not measured)
};

// kopt could not run the request (the task's reference failed, no such size case, a malformed request):
// {"reply": op, "id": id, "error": {"code", "message"}}. Candidate failures are never errors.
struct ErrorReply {
  std::string op;
  std::int64_t id = 0;
  ErrorCode code = ErrorCode::worker_error;
  std::string message;
  bool restart = false;  // optional on the wire (absent: false): the worker exits after replying
};

// The watchdog ended the request: the worker exits right after this line.
struct FatalReply {
  std::string op;
  std::int64_t id = 0;
  std::string fatal;  // what ended it: "timeout"
  std::string message;
};

// {"event": "progress", "what": ...}: any number before a reply; each resets the client's idle deadline.
struct ProgressEvent {
  std::string what;
};

// One size case of check_task: the reference's own checks and timings.
struct CheckTaskSize {
  std::string size;
  bool verify_only = false;
  bool deterministic = true;
  bool reference_constant = false;
  std::optional<std::string> baseline_status;  // optional: "ok" or the baseline's failing status
  std::optional<TimingFields> reference;       // optional: absent on verify-only size cases
  std::optional<TimingFields> baseline;        // optional: absent without a passing baseline
  std::string note;
};

struct CheckTaskReply {
  std::int64_t id = 0;
  std::vector<CheckTaskSize> sizes;
};

struct SingleTrialReply {
  std::int64_t id = 0;
  VerdictFields candidate;
  std::optional<std::string> size;  // optional: absent when the candidate did not load or launch
  bool restart = false;             // optional on the wire (absent: false)
};

struct CalibrateReply {
  std::int64_t id = 0;
  double dram_bytes_per_s = 0.0;
  double fp32_flops_per_s = 0.0;
  double bf16_tensor_flops_per_s = 0.0;
  double fp16_tensor_flops_per_s = 0.0;
  std::vector<std::string> notes;  // what could not be measured
  double wall_ms = 0.0;
};

struct SpreadFields {
  double min = 0.0;
  double median = 0.0;
  double max = 0.0;
};

struct EnergyWindowFields {
  double joules = 0.0;
  double seconds = 0.0;
  std::int64_t calls = 0;
  double joules_per_call = 0.0;
  double avg_watts = 0.0;
  double idle_watts = 0.0;
};

// One subject's energy measurement (docs/analysis.md, "Energy").
struct EnergyFields {
  std::vector<EnergyWindowFields> trials;
  SpreadFields joules_per_call;
  double avg_watts = 0.0;
  double idle_watts = 0.0;
  double seconds = 0.0;
  std::int64_t calls = 0;
  bool graph = false;
  std::int64_t calls_per_graph = 0;
  std::int64_t replays = 0;
  double probe_call_us = 0.0;
  SpreadFields sampled_watts;
  SpreadFields sm_clock_mhz;
  SpreadFields memory_clock_mhz;
  std::optional<double> temperature_start_c;  // null when NVML has no temperature
  std::optional<double> temperature_end_c;
  std::int64_t samples = 0;
  std::string note;
};

struct EnergyReply {
  std::int64_t id = 0;
  std::string size;
  CandidateStatus status = CandidateStatus::ok;  // the candidate's: {"candidate": {"status", "message", ...}}
  std::string message;
  std::optional<EnergyFields> candidate_energy;  // optional: absent when the candidate failed
  std::optional<EnergyFields> reference_energy;  // optional: absent unless the request asked for it
  std::optional<std::string> sampling;           // optional: how power was sampled, when measured
  bool restart = false;                          // optional on the wire (absent: false)
};

nlohmann::json to_json(HelloReply const& reply);
nlohmann::json to_json(ErrorReply const& reply);
nlohmann::json to_json(FatalReply const& reply);
nlohmann::json to_json(ProgressEvent const& event);
nlohmann::json to_json(CheckTaskSize const& size);
nlohmann::json to_json(CheckTaskReply const& reply);
nlohmann::json to_json(SingleTrialReply const& reply);
nlohmann::json to_json(CalibrateReply const& reply);
nlohmann::json to_json(EnergyFields const& energy);
nlohmann::json to_json(EnergyReply const& reply);

Result<HelloReply> parse_hello_reply(nlohmann::json const& body);
Result<ErrorReply> parse_error_reply(nlohmann::json const& body);
Result<FatalReply> parse_fatal_reply(nlohmann::json const& body);
Result<ProgressEvent> parse_progress_event(nlohmann::json const& body);
Result<CheckTaskReply> parse_check_task_reply(nlohmann::json const& body);
Result<SingleTrialReply> parse_single_trial_reply(nlohmann::json const& body);
Result<CalibrateReply> parse_calibrate_reply(nlohmann::json const& body);
Result<EnergyReply> parse_energy_reply(nlohmann::json const& body);

// What kopt makes of a reply that carries "error": the worker's code and message, or, for an error reply
// kopt cannot read, a worker_error that says why.
Error error_of_reply(nlohmann::json const& body);

// The fatal reply a dying worker left as its last line, if `body` is one kopt can read.
std::optional<FatalReply> fatal_reply_in(nlohmann::json const& body);

// An error code's wire name back to the code; a name kopt does not know is a worker_error.
ErrorCode error_code_from_name(std::string const& name);

}  // namespace kopt::worker
