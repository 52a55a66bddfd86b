// What the system-call watch (syscall_watch.hpp) calls a violation of the worker's confinement: an
// access to a path that the Landlock rules (confinement.hpp) do not grant. The same folders, judged on
// the path a call names, so that the candidate that tried is named (Landlock refuses it either way, and
// says nothing). No CUDA and no seccomp here: tests/worker checks it directly.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kopt/result.hpp"

namespace kopt::worker {

enum class PathIntent {
  read,   // open for reading, list a folder
  write,  // open for writing, create, remove, rename, link, change mode, owner, times or attributes
};

struct WatchPolicy {
  std::filesystem::path scratch;                // read and write beneath it
  std::vector<std::filesystem::path> readable;  // folders and files: read beneath or on them
  std::vector<std::filesystem::path> devices;   // files, or folders of them: read and write
  // Folders nothing may be read beneath although a readable folder holds them: the reference's own
  // runtime (PyTorch's package, for a task whose reference is a PyTorch module: docs/pytorch.md).
  std::vector<std::filesystem::path> forbidden;
  int process_id = 0;  // the watched process (what its /proc/self names)
};

// One "<kind> <path>" line per entry (kind: scratch, read, device, deny, pid): sent to the supervisor.
std::string to_text(WatchPolicy const& policy);
Result<WatchPolicy> watch_policy_from_text(std::string const& text);

// The policy with every path resolved as the kernel would (symbolic links followed), so that
// judge() compares like with like. Paths that do not exist are dropped (Landlock skips them too).
WatchPolicy resolved(WatchPolicy const& policy);

// `raw` (as the call named it) made absolute against `base` (the calling thread's working folder or
// the folder of the descriptor it passed), /proc/self and /proc/thread-self named for the watched
// process and thread `thread_id`, and symbolic links of its existing part followed.
std::filesystem::path resolve_path(std::string const& raw, std::filesystem::path const& base, int process_id,
                                   int thread_id);

struct PathJudgement {
  bool violation = false;
  std::string reason;  // "write outside the scratch folder: /home/u/x"; empty when no violation
};

// How a call treats the path it names.
enum class PathUse {
  existing,   // reads or changes what is there (open, unlink, chmod): ENOENT when nothing is
  create,     // makes it, or opens it when it is there (open with O_CREAT, rename's new name)
  exclusive,  // makes it, and fails with EEXIST when it is there (mkdir, mknod, symlink, link, O_EXCL)
};

// Whether an access to `path` (resolved) with `intent` breaks the policy. Only an access that would
// have reached something counts: what fails whatever the rules is no violation, and the kernel must
// give its own answer to it (ENOENT for a path or folder that is not there; EEXIST for mkdir of a
// folder that is: `mkdir -p` code treats that as success, CUDA's libraries probe such paths).
PathJudgement judge(WatchPolicy const& policy, std::filesystem::path const& path, PathIntent intent,
                    PathUse use);

}  // namespace kopt::worker
