// The verification fast path: a trial's two candidate runs checked entirely on the device against
// device copies of the inputs and the reference's masked results (device_checks.hpp). It accepts a trial
// only when every check passes; anything else returns nullopt and the worker runs the host path,
// which decides and explains. docs/verification.md ("Device fast path").
#pragma once

#include <optional>
#include <vector>

#include "kopt/inputs.hpp"
#include "kopt/task.hpp"
#include "kopt/worker/masked_results.hpp"
#include "worker/gpu/candidate_call.hpp"
#include "worker/gpu/worker_state.hpp"

namespace kopt::worker {

// The device copy of a trial (created on first use, bounded by free device memory); nullptr when it
// does not fit, in which case only the host path runs.
DeviceTrial const* device_trial(WorkerState& state, TaskSpec const& task, SizeCase const& size,
                                TrialInputs const& inputs, MaskedResults const& expected);

// `runs` is 2 (poison A, then poison B, and the two runs compared) or 1 (poison A only). Scratch
// buffers get poison A before the first run unless `keep_scratch` (the verification after timing).
std::optional<Verdict> verify_on_device(WorkerState& state, TaskSpec const& task, SizeCase const& size,
                                        SizeBuffers& buffers, Callable& candidate, DeviceTrial const& trial,
                                        double deadline_ms, int runs, bool keep_scratch);

}  // namespace kopt::worker
