// Request handlers of the worker: evaluate a candidate, check a task's reference, run one trial
// (under compute-sanitizer). Each returns the reply body; a sticky CUDA error sets "restart".
#pragma once

#include <nlohmann/json.hpp>

#include "worker/gpu/worker_state.hpp"

namespace kopt::worker {

nlohmann::json handle_evaluate(WorkerState& state, nlohmann::json const& request);
nlohmann::json handle_check_task(WorkerState& state, nlohmann::json const& request);
nlohmann::json handle_single_trial(WorkerState& state, nlohmann::json const& request);

}  // namespace kopt::worker
