// Landlock through its system calls (no library): the folders and files a process may still read or
// write, applied to every thread of the process. No CUDA here: tests/worker runs it without a GPU.
// docs/security.md, "Containment of launcher-mode host code", states the policy built on it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "kopt/result.hpp"

namespace kopt::worker {

// The kernel's Landlock ABI version; 0 when it has none, with the reason in `why` (ENOSYS: not built
// in, EOPNOTSUPP: disabled at boot).
int landlock_abi(std::string* why = nullptr);

// What a rule grants beneath a path (on a file: the rights that apply to a file).
enum class PathAccess {
  read,    // read files and list folders (libraries are mapped from such files; nothing may be executed)
  write,   // read, create, write, rename and remove; no executing, no device nodes, no sockets
  device,  // read, write and ioctl (/dev/null, /dev/nvidia*)
};

struct LandlockOptions {
  bool deny_tcp = true;             // ABI >= 4: no TCP bind or connect (no rule allows one)
  bool scope_abstract_unix = true;  // ABI >= 6: no connecting to abstract Unix sockets made outside
  bool scope_signals = true;        // ABI >= 6: no signals to processes outside (kopt, the shell)
};

struct ThreadsConfined {
  std::size_t confined = 0;    // threads of the process that restricted themselves (the caller included)
  std::size_t unconfined = 0;  // threads that did not answer (the signal blocked): they keep full access
};

class LandlockRuleset {
 public:
  // A ruleset that handles every file-system right the kernel knows: what no rule grants is refused.
  static Result<LandlockRuleset> create(LandlockOptions const& options);

  LandlockRuleset(LandlockRuleset&& other) noexcept;
  LandlockRuleset& operator=(LandlockRuleset&& other) noexcept;
  LandlockRuleset(LandlockRuleset const&) = delete;
  LandlockRuleset& operator=(LandlockRuleset const&) = delete;
  ~LandlockRuleset();

  int abi() const noexcept { return abi_; }

  // Grants `access` beneath `path` (a folder) or on it (a file). An error when the path cannot be opened.
  Status allow(std::filesystem::path const& path, PathAccess access);

  // Restricts the calling thread, and asks each other thread to restrict itself (a signal whose handler
  // calls landlock_restrict_self: Landlock ABI <= 7 confines the calling thread only, and the worker has
  // CUDA's and the watchdog's threads when it confines itself). Threads started afterwards inherit the
  // restriction. Needs no_new_privs (or CAP_SYS_ADMIN). No rule can be added afterwards.
  Result<ThreadsConfined> restrict_all_threads();

 private:
  LandlockRuleset(int fd, int abi) : fd_(fd), abi_(abi) {}
  int fd_ = -1;
  int abi_ = 0;
};

}  // namespace kopt::worker
