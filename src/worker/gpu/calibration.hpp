// The worker's `calibrate` request: what this GPU really does at most, measured (docs/analysis.md,
// "kopt calibrate"): device-to-device copy bandwidth, FP32 FMA throughput, and dense BF16 and FP16
// tensor-core throughput through cuBLAS (FP32 accumulation). Clocks are left as found.
#pragma once

#include <nlohmann/json.hpp>

#include "worker/gpu/worker_state.hpp"

namespace kopt::worker {

nlohmann::json handle_calibrate(WorkerState& state, nlohmann::json const& request);

}  // namespace kopt::worker
