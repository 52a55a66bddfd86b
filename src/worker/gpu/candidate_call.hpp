// A verdict on a candidate, and one guarded call of it.
#pragma once

#include <optional>
#include <string>

#include "kopt/candidate_status.hpp"
#include "worker/gpu/buffers.hpp"
#include "worker/gpu/callable.hpp"
#include "worker/gpu/cuda_errors.hpp"
#include "worker/gpu/worker_state.hpp"

namespace kopt::worker {

// A verdict on a candidate for one size case (or the whole request).
struct Verdict {
  CandidateStatus status = CandidateStatus::ok;
  std::string message;
  bool sticky = false;
  double max_abs_err = 0.0;
  double max_rel_err = 0.0;
  std::size_t mismatches = 0;
  bool failed() const { return status != CandidateStatus::ok; }
};

inline Verdict from_cuda(CudaFailure const& f, std::string const& context) {
  return Verdict{f.status, context + f.message, f.sticky};
}

// One call of the candidate under the watchdog, followed by a device-wide synchronisation (work the
// candidate put on other streams is finished, and so checked, too). Any CUDA error is the verdict.
std::optional<Verdict> call_candidate(WorkerState& state, Callable& candidate, ArgPack& args,
                                      double deadline_ms);

}  // namespace kopt::worker
