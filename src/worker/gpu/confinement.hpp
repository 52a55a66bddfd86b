// The worker's confinement: Landlock (landlock.hpp) and the system-call filter (syscall_filter.hpp)
// with the paths the worker needs once it serves requests. Prepared at start-up, so that what is
// missing shows in the hello reply's `isolation`, and applied before the first request that may load a
// candidate, with the folders that request names (Landlock rules cannot be added afterwards).
// No CUDA here: tests/worker applies it in a forked child. docs/security.md states the policy.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "worker/gpu/landlock.hpp"
#include "worker/gpu/syscall_filter.hpp"
#include "worker/gpu/syscall_watch.hpp"

namespace kopt::worker {

struct ConfinementOptions {
  std::filesystem::path scratch;               // the only folder it may write (with the device files)
  std::vector<std::filesystem::path> read;     // read-only beyond the system's: task folders, the cache
  std::vector<std::filesystem::path> deny;     // never readable, even beneath a readable folder (the watch)
  std::vector<std::filesystem::path> devices;  // read, write and ioctl (default_device_paths())
  std::vector<std::filesystem::path> system;   // read-only system locations (default_system_paths())
  bool tool_sockets = false;  // under compute-sanitizer: IP and Unix sockets, TCP, abstract sockets allowed
  bool landlock = true;
  bool seccomp = true;
  bool watch = true;  // name each refused call and file access (syscall_watch.hpp); needs seccomp
  std::string off_reason = "turned off (KOPT_WORKER_CONFINE=0)";  // why, when landlock or seccomp is false
};

// What the worker reads after start-up besides its requests' folders: libraries (/usr, /lib*, /opt and
// the folders of CUDA_HOME, CUDA_PATH, LD_LIBRARY_PATH, KOPT_WORKER_CUPTI_LIBRARY), the dynamic
// loader's configuration in /etc (files, not /etc itself), /sys, and /proc without other processes'
// folders. Only those that exist; computed in the process that will be confined.
std::vector<std::filesystem::path> default_system_paths();
// /dev/null, zero, full, random, urandom and every /dev/nvidia* (CUDA opens them again after start-up,
// e.g. for NVML), but not /dev itself: a block device stays closed to root too.
std::vector<std::filesystem::path> default_device_paths();

class Confinement {
 public:
  // Checks what the system offers and prepares both mechanisms with the options' paths. Never fails:
  // what is unavailable is listed by missing().
  static Confinement prepare(ConfinementOptions const& options);

  Confinement(Confinement&& other) noexcept;
  Confinement& operator=(Confinement&& other) noexcept;
  Confinement(Confinement const&) = delete;
  Confinement& operator=(Confinement const&) = delete;
  ~Confinement();

  // Adds read-only rules for `read` (the folders the first request names; those that do not exist are
  // skipped) and device rules for `devices` (device files CUDA made since start-up), then restricts every
  // thread (Landlock) and loads the filter. Once only; later calls do nothing.
  void apply(std::vector<std::filesystem::path> const& read = {},
             std::vector<std::filesystem::path> const& devices = {});
  bool applied() const noexcept { return applied_; }

  // What the watch reported since the last call ("refused system call ptrace", "write outside the
  // scratch folder: /home/u/x (openat)"): empty without a watch.
  std::vector<std::string> take_violations();

  // "landlock (abi 7)", "seccomp", "watch": prepared (before apply) or in force (after).
  std::vector<std::string> active() const;
  // "landlock: the kernel has no Landlock (ENOSYS)": one entry per mechanism that is not in force.
  std::vector<std::string> missing() const;

 private:
  Confinement() = default;
  std::optional<LandlockRuleset> landlock_;
  std::optional<SyscallFilter> filter_;
  std::optional<SyscallWatch> watch_;
  WatchPolicy policy_;  // the Landlock rules' folders, for the watch
  bool tool_sockets_ = false;
  int landlock_abi_ = 0;
  bool applied_ = false;
  std::vector<std::string> missing_;
  std::vector<std::string> active_;
};

}  // namespace kopt::worker
