// expect: sandbox_violation
// defeats: a worker that may inspect the process that started it (kopt: its memory, keys, results)
// mode: launcher
// task: examples/vector_add

// Computes the right answer, but on every call also tries ptrace(PTRACE_ATTACH) on its parent (kopt)
// and process_vm_readv of a few bytes of the parent's memory. If the attach ever succeeds it waits
// (briefly, without blocking) for the parent to stop and detaches at once, so kopt runs on. The
// seccomp filter must refuse both calls, and kopt must report the attempt: sandbox_violation.
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "sandbox_escape.cuh"

namespace {

// The pid of the process tracing this one (TracerPid in /proc/self/status), 0 when none.
pid_t tracer() {
  FILE* status = std::fopen("/proc/self/status", "r");
  if (status == nullptr) return 0;
  long pid = 0;
  char line[256];
  while (std::fgets(line, sizeof line, status) != nullptr) {
    if (std::sscanf(line, "TracerPid: %ld", &pid) == 1) break;
  }
  std::fclose(status);
  return static_cast<pid_t>(pid);
}

void try_to_inspect_parent() {
  int const saved_errno = errno;
  pid_t const parent = getppid();
  // Never attach to its own tracer (kopt run under strace or gdb): both would stop for good.
  if (tracer() != parent && ptrace(PTRACE_ATTACH, parent, nullptr, nullptr) == 0) {
    // The parent gets SIGSTOP; wait up to ~100 ms for the stop (PTRACE_DETACH needs a stopped
    // tracee), then detach without passing the signal on.
    for (int i = 0; i < 100; ++i) {
      int status = 0;
      if (waitpid(parent, &status, WNOHANG | __WALL) == parent) break;
      timespec const pause{0, 1000000};
      nanosleep(&pause, nullptr);
    }
    ptrace(PTRACE_DETACH, parent, nullptr, nullptr);
  }

  // A few bytes at the address of one of its own variables: the parent's layout is unknown, and the
  // call itself is what must be refused, whatever the address.
  char local[16] = {};
  char remote_probe = 0;
  iovec here{local, sizeof local};
  iovec there{&remote_probe, sizeof local};
  ssize_t const got = process_vm_readv(parent, &here, 1, &there, 1, 0);
  (void)got;
  errno = saved_errno;
}

}  // namespace

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  try_to_inspect_parent();
  escape::add_honestly(c, a, b, n);
}
