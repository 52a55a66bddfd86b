// The verdict of an `evaluate` request, typed on both sides of the worker protocol
// (docs/worker-protocol.md). The worker builds an EvaluateReply and writes it with to_json; kopt reads
// it with parse_evaluate_reply, which fails closed: a field that is missing, of the wrong type, not
// known, or a status kopt does not know is an error naming the field, and the evaluator turns that
// error into a rejected candidate. A verdict kopt cannot read completely is never a pass.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kopt/candidate_status.hpp"
#include "kopt/measure.hpp"
#include "kopt/result.hpp"

namespace kopt::worker {

// A verdict: the candidate's overall one, or one size case's.
struct VerdictFields {
  CandidateStatus status = CandidateStatus::ok;
  std::string message;
  double max_abs_err = 0.0;
  double max_rel_err = 0.0;
  std::uint64_t mismatches = 0;
};

// One timed subject on one size case.
struct TimingFields {
  SampleStats us;                       // one sample per call, CUDA events
  std::optional<SampleStats> graph_us;  // per call, from CUDA-graph replays (short kernels)
  bool device_wide = false;             // timed to device idle (work escaped the launch stream)
  double warmup_ms = 0.0;
};

// One size case of the candidate's evaluation.
struct SizeVerdict {
  std::string size;
  bool verify_only = false;
  std::vector<std::uint64_t> seeds;  // one per verification trial, in order
  VerdictFields verdict;
  std::optional<TimingFields> reference;
  std::optional<TimingFields> candidate;
  std::optional<TimingFields> baseline;
  std::optional<nlohmann::json> activity;            // kernel activity (kernel_activity_summary.hpp)
  std::optional<nlohmann::json> reference_activity;  // the reference's, launcher references only
  std::optional<std::string> activity_note;          // why there is no kernel activity
  std::optional<std::string> timing_note;            // what the timing protocol noticed
};

struct EvaluateReply {
  std::int64_t id = 0;
  double load_ms = 0.0;
  double verify_ms = 0.0;
  double time_ms = 0.0;
  double activity_ms = 0.0;  // inside time_ms
  VerdictFields candidate;
  std::vector<SizeVerdict> sizes;  // the size cases evaluated, up to the one that decided a failure
  bool restart = false;            // the CUDA context is unusable: the worker exits after replying
};

nlohmann::json to_json(EvaluateReply const& reply);
nlohmann::json to_json(SizeVerdict const& size);
nlohmann::json to_json(VerdictFields const& verdict);

// Strict readers: every field present, of its type, and no other.
Result<EvaluateReply> parse_evaluate_reply(nlohmann::json const& body);
Result<TimingFields> parse_timing(nlohmann::json const& body, std::string const& where);

}  // namespace kopt::worker
