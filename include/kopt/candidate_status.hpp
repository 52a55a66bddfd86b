// The verdict every candidate ends with. Exactly one per candidate (and per size case).
#pragma once

#include <optional>
#include <string_view>

namespace kopt {

enum class CandidateStatus {
  ok,                   // verified on every size case and timed
  compile_error,        // nvcc or NVRTC rejected the source
  load_error,           // compiled, but the entry symbol or kernel could not be found or loaded
  launch_error,         // the launch itself failed (bad geometry, too many resources)
  runtime_error,        // a CUDA error during execution (illegal address, trap, ...); worker restarted
  timeout,              // exceeded the watchdog deadline; worker killed and restarted
  wrong_output,         // output differs from the reference beyond tolerance (incl. unwritten elements)
  nondeterministic,     // two runs on identical inputs differ beyond tolerance (races)
  input_mutated,        // a buffer declared input changed
  out_of_bounds_write,  // a guard region around a buffer was written
  implausibly_fast,     // faster than the task's speed-of-light bound: measurement is not trusted
  sandbox_violation,  // made a system call or file access the worker's confinement refused; worker restarted
};

std::string_view to_string(CandidateStatus status) noexcept;
std::optional<CandidateStatus> candidate_status_from_string(std::string_view text) noexcept;

// Order in which failures are reported when several size cases fail differently:
// the earliest stage of the pipeline wins (a compile error hides everything after it).
int pipeline_rank(CandidateStatus status) noexcept;

}  // namespace kopt
