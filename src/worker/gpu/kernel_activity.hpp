// Kernel activity of one call (docs/analysis.md, "Kernel activity (CUPTI)"): after timing, one more call
// of a launcher runs with CUPTI's concurrent-kernel (and memcpy/memset) activity records enabled, bracketed
// by CUDA events; the records are flushed, activity is disabled again, and the call is summarised (launches,
// kernel names and durations, busy time, span, call time). Never enabled while timing.
#pragma once

#include <optional>
#include <string>

#include "kopt/kernel_activity.hpp"
#include "kopt/result.hpp"
#include "worker/gpu/callable.hpp"
#include "worker/gpu/cuda_errors.hpp"
#include "worker/gpu/watchdog.hpp"

namespace kopt::worker {

struct ActivityCall {
  Watchdog* watchdog = nullptr;
  Callable* callable = nullptr;
  void** args = nullptr;
  double deadline_ms = 60000;    // watchdog for the call
  std::string what;              // "the candidate", "the task's reference"
  void* flush_buffer = nullptr;  // the L2 is flushed before the call, as before every timed sample
  std::size_t flush_bytes = 0;
};

// What recording gave: the activity, or why there is none (CUPTI missing or failing, the call failed).
struct ActivityOutcome {
  std::optional<KernelActivity> activity;
  std::string note;                    // set when activity is empty
  std::optional<CudaFailure> failure;  // the call itself failed (the caller decides what that means)
};

// Records one call. CUPTI is loaded once per process on first use (its state is process-wide); when it is
// missing or fails, the outcome carries a note and no activity. $KOPT_WORKER_KERNEL_ACTIVITY=0 turns
// recording off.
ActivityOutcome record_kernel_activity(ActivityCall const& call);

// Kernel mode: one launch by construction, no CUPTI needed (no times).
KernelActivity kernel_mode_activity();

}  // namespace kopt::worker
