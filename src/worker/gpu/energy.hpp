// The worker's `energy` request (docs/analysis.md, "Energy"; docs/worker-protocol.md): joules per call
// of the candidate (and the task's reference) on one size case, read from NVML's energy counter over
// windows of at least `window_s` seconds of back-to-back calls replayed from a CUDA graph, with an idle
// cooldown before each window, and power, clocks and temperature sampled every ~100 ms during it.
#pragma once

#include <nlohmann/json.hpp>

#include "worker/gpu/worker_state.hpp"

namespace kopt::worker {

nlohmann::json handle_energy(WorkerState& state, nlohmann::json const& body);

}  // namespace kopt::worker
