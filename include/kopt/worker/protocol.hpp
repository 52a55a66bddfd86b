// The kopt <-> kopt-worker protocol: one JSON object per line over the worker's stdin/stdout.
// docs/worker-protocol.md is the reference. Requests carry an "op" and an "id"; the worker answers
// each request with exactly one line {"reply": op, "id": id, ...}. Before that it may send any number
// of {"event": "progress", ...} lines, which also serve as heartbeats for the client's watchdog. The
// messages themselves are typed: request_messages.hpp, reply_messages.hpp and verdict_messages.hpp;
// this header holds the version, the exit codes and the values several messages carry.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "kopt/candidate_status.hpp"
#include "kopt/device.hpp"
#include "kopt/measure.hpp"

namespace kopt::worker {

inline constexpr int kProtocolVersion = 4;  // 4: evaluate may carry reference_results (a PyTorch reference)

// Worker exit codes the client interprets.
inline constexpr int kExitNormal = 0;
inline constexpr int kExitTimeout = 3;      // watchdog fired while a candidate ran
inline constexpr int kExitStickyError = 4;  // the CUDA context is unusable after a candidate's error
inline constexpr int kExitNoGpu = 5;        // no usable device at start
inline constexpr int kExitProtocol = 6;     // malformed request

// Kernel mode: one argument of the launch when the kernel does not take the task's parameters in order
// (LaunchSpec::args): a task parameter passed unchanged, or a value computed for each size case.
struct KernelArgumentRef {
  int parameter = -1;  // >= 0: the task's parameter at this index, passed unchanged (type empty), or,
                       // with type "f32", a double parameter rounded to float
  std::string type;    // otherwise "i32", "i64", "u32", "u64" (from an integer expression) or "f32", "f64"
  std::string value;   // the expression over the size case's scalars, or the number
};

// Artifact reference in a request: what to load and how to call it.
struct ArtifactRef {
  std::string mode;    // "kernel" | "launcher"
  std::string path;    // .cubin or .so
  std::string symbol;  // lowered kernel name or trampoline symbol
  // Kernel mode only: launch geometry expressions (evaluated per size case by the worker).
  std::vector<std::string> grid;
  std::vector<std::string> block;
  std::string shared_bytes = "0";
  // Kernel mode: expected size in bytes of each kernel parameter (signature order), checked against
  // the CUBIN's parameter layout at load so a kernel with another signature is a load_error.
  std::vector<int> param_sizes;
  // Kernel mode: the kernel's arguments; empty = the task's parameters in signature order.
  std::vector<KernelArgumentRef> arguments;
};

nlohmann::json to_json(ArtifactRef const& ref);

nlohmann::json to_json(SampleStats const& stats);
SampleStats sample_stats_from_json(nlohmann::json const& j);

nlohmann::json to_json(DeviceInfo const& d);

}  // namespace kopt::worker
