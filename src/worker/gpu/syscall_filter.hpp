// The worker's system-call filter (seccomp, through libseccomp): what launcher-mode host code may not
// call once the worker serves requests. A refused call fails with EPERM (clone3 with ENOSYS, so that
// the C library falls back to clone): the candidate's call fails and the worker survives. With
// `notify`, refused calls and file-system calls go to the system-call watch (syscall_watch.hpp), which
// answers them the same way and names the caller. No CUDA here: tests/worker runs it without a GPU.
// docs/security.md lists the calls.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kopt/result.hpp"

namespace kopt::worker {

struct SyscallFilterOptions {
  // Under compute-sanitizer (a network namespace shared with the tool, which talks to its target over
  // sockets): IP and Unix sockets stay allowed. Otherwise socket() is refused for every family.
  bool tool_sockets = false;
  // Refused calls are answered by a supervisor (SCMP_ACT_NOTIFY) instead of the kernel, and so are the
  // file-system calls that Landlock checks (open, create, remove, rename, link, change mode, owner,
  // times or attributes), which the supervisor judges on their paths. Needs notifications_supported().
  bool notify = false;
};

// Whether this libseccomp and kernel can notify a supervisor with the filter on every thread.
bool notifications_supported();

// The calls the filter refuses by name (for docs and reports).
std::vector<std::string> refused_system_calls();

class SyscallFilter {
 public:
  // Builds the filter without loading it, so that a missing libseccomp shows at start-up.
  static Result<SyscallFilter> build(SyscallFilterOptions const& options);

  SyscallFilter(SyscallFilter&& other) noexcept;
  SyscallFilter& operator=(SyscallFilter&& other) noexcept;
  SyscallFilter(SyscallFilter const&) = delete;
  SyscallFilter& operator=(SyscallFilter const&) = delete;
  ~SyscallFilter();

  // Loads it for every thread of the process (TSYNC); sets no_new_privs. Irrevocable.
  Status load();
  // After load() of a filter built with `notify`: the listener a supervisor answers on (the caller owns
  // it). -1 otherwise.
  int notification_fd() const;

 private:
  struct Impl;
  explicit SyscallFilter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace kopt::worker
