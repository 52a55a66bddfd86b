#include "worker/gpu/candidate_call.hpp"

namespace kopt::worker {

std::optional<Verdict> call_candidate(WorkerState& state, Callable& candidate, ArgPack& args,
                                      double deadline_ms) {
  WatchdogScope guard(state.watchdog, deadline_ms, "the candidate");
  cudaError_t err = candidate.call(args.data());
  if (err != cudaSuccess) {
    cudaGetLastError();
    return from_cuda(classify_cuda_error(err, true), "launch failed: ");
  }
  err = cudaDeviceSynchronize();
  if (err != cudaSuccess) return from_cuda(classify_cuda_error(err, false), "");
  return std::nullopt;
}

}  // namespace kopt::worker
