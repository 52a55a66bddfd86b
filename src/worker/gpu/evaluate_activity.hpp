// The kernel-activity part of an evaluate request: after a size case is timed, one more call of the
// candidate (and of the reference, when it is a launcher and was timed in this request) is recorded and
// written into the size entry of the reply (activity, reference_activity), or a note saying why not.
#pragma once

#include <cstddef>

#include "kopt/worker/verdict_messages.hpp"
#include "worker/gpu/callable.hpp"
#include "worker/gpu/watchdog.hpp"

namespace kopt::worker {

struct ActivitySubjects {
  Watchdog* watchdog = nullptr;
  void* flush_buffer = nullptr;
  std::size_t flush_bytes = 0;
  bool candidate_launcher = false;  // kernel mode: one launch, no CUPTI call
  Callable* candidate = nullptr;
  void** candidate_args = nullptr;
  double candidate_deadline_ms = 60000;
  Callable* reference = nullptr;  // nullptr: the reference is not recorded (kernel mode, or not timed now)
  void** reference_args = nullptr;
};

// Sets entry.activity (and entry.reference_activity) or entry.activity_note. Never fails: a CUPTI
// problem or a failing call becomes the note (a broken candidate is caught by post-timing verification).
void add_kernel_activity(ActivitySubjects const& subjects, SizeVerdict& entry);

}  // namespace kopt::worker
