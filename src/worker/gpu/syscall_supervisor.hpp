// The supervisor of the system-call watch: a process of its own (syscall_watch.hpp starts it) that
// answers the seccomp filter's user notifications for the worker. Each notified call is judged:
//   - a refused call (ptrace, execve, fork, socket, mount, ...) is answered with EPERM and reported;
//   - a file-system call is judged on its path (watch_policy.hpp): outside the policy it is answered
//     with EACCES (Landlock's answer) and reported; otherwise the kernel carries it out (and Landlock
//     still checks it: the supervisor only names who tried, the kernel enforces).
// A report is written (one line) before the call is answered, so the worker reads it as soon as the
// call returns. Needs libseccomp; without it there is no watch.
#pragma once

#include "worker/gpu/watch_policy.hpp"

namespace kopt::worker {

struct SupervisorChannels {
  int listener = -1;  // the filter's notification descriptor
  int memory = -1;    // /proc/<worker>/mem, opened by the worker (paths are read from it)
  int report = -1;    // write end of the report pipe (non-blocking): one line per violation
};

// Serves notifications until the listener closes (the worker has exited). Never returns normally
// from a healthy loop; returns when the listener fails.
void run_supervisor(SupervisorChannels const& channels, WatchPolicy const& policy);

}  // namespace kopt::worker
