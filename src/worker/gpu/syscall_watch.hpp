// The system-call watch: names the candidate that tried to leave the worker's confinement. The filter
// (syscall_filter.hpp) sends refused calls and file-system calls to a supervisor process instead of
// failing them silently; the supervisor (syscall_supervisor.hpp) answers them, refusing what the
// confinement refuses, and reports each refusal here. The worker takes the reports after each request
// and turns them into the candidate's `sandbox_violation` (docs/security.md, "Violations are named").
//
// The supervisor is started before CUDA and before the worker confines itself, so it is outside the
// worker's Landlock domain: a confined candidate can neither signal it (Landlock's signal scope) nor
// reach its /proc folder, and the filter refuses ptrace and pidfd_getfd. The worker keeps no copy of
// the listener. What a candidate can still do is read the report pipe's end in its own process:
// it then hides the report, never the refusal (docs/security.md).
#pragma once

#include <string>
#include <vector>

#include "kopt/result.hpp"
#include "worker/gpu/watch_policy.hpp"

namespace kopt::worker {

class SyscallWatch {
 public:
  // Starts the supervisor process, which waits for hand_over(). Before CUDA (it forks).
  static Result<SyscallWatch> start();

  SyscallWatch(SyscallWatch&& other) noexcept;
  SyscallWatch& operator=(SyscallWatch&& other) noexcept;
  SyscallWatch(SyscallWatch const&) = delete;
  SyscallWatch& operator=(SyscallWatch const&) = delete;
  ~SyscallWatch();

  // False once the supervisor has exited (then notified calls fail with ENOSYS, unreported).
  bool running() const;

  // Passes the filter's listener and the policy to the supervisor, then closes the worker's copy of
  // the listener (also on error). After a successful load of a filter that notifies.
  Status hand_over(int listener, WatchPolicy const& policy);

  // The reports since the last call, in order; never blocks.
  std::vector<std::string> take();

 private:
  SyscallWatch() = default;
  void close_all() noexcept;
  int pid_ = -1;
  int channel_ = -1;  // socket to the supervisor: the policy and the listener
  int reports_ = -1;  // read end of the report pipe
  std::string partial_;
};

}  // namespace kopt::worker
