// Request handlers of the worker: evaluate a candidate, check a task's reference, run one trial
// (under compute-sanitizer). Each returns the reply body; a sticky CUDA error sets "restart".
#pragma once

#include <nlohmann/json.hpp>

#include "kopt/worker/request_messages.hpp"
#include "worker/gpu/worker_state.hpp"

namespace kopt::worker {

nlohmann::json handle_evaluate(WorkerState& state, nlohmann::json const& body);
nlohmann::json handle_check_task(WorkerState& state, nlohmann::json const& body);
nlohmann::json handle_single_trial(WorkerState& state, nlohmann::json const& body);

// One size case set up for calls outside verification (single_trial, energy): the task, the size case
// the request selects (its first), and arguments pointing at trial-0 inputs of the selection's seed in that
// size case's candidate (guarded) or reference buffers, outputs poisoned. Error: kopt could not set it
// up (the task does not load, no size case matches, the inputs cannot be generated or uploaded).
struct StagedCall {
  TaskSpec const* task = nullptr;
  SizeCase const* size = nullptr;
  ArgPack args;
};
Result<StagedCall> stage_call(WorkerState& state, TaskSelection const& selection, bool reference_buffers);
// The task's reference or baseline described by `artifact`, loaded once per worker.
Result<Callable*> trusted_callable(WorkerState& state, ArtifactRef const& artifact, char const* what);

}  // namespace kopt::worker
