// What the worker does to contain untrusted host code (launcher-mode candidates) before it loads any
// of it. docs/security.md states what this contains and what it does not.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "worker/gpu/confinement.hpp"

namespace kopt::worker {

struct SandboxOptions {
  bool enable = true;             // false: --no-sandbox (nothing but PR_SET_PDEATHSIG)
  bool network_namespace = true;  // false: already inside one, shared with a tool (--netns-exec)
  bool confine = true;            // Landlock and seccomp (KOPT_WORKER_CONFINE=0 turns them off)
  bool watch = true;              // the system-call watch (KOPT_WORKER_WATCH=0 turns it off)
  std::vector<std::filesystem::path>
      read;  // readable beyond the system's (--allow-read, KOPT_WORKER_ALLOW_READ)
  std::vector<std::filesystem::path> deny;  // never readable (--deny-read: the reference's runtime)
};

class Sandbox {
 public:
  // At start-up, before CUDA: network namespace, no_new_privs, rlimits, a private scratch folder (cwd,
  // TMPDIR, HOME), and Landlock and seccomp prepared. Never fails hard: what is missing is reported.
  static Sandbox enter(SandboxOptions const& options);

  // Before the first request after hello (CUDA is initialised by then): Landlock rules for `read` (the
  // folders that request names) are added, every thread is restricted and the filter is loaded. Once.
  void confine(std::vector<std::filesystem::path> const& read);
  bool confined() const noexcept { return confinement_ && confinement_->applied(); }
  // What the system-call watch reported since the last call (confinement.hpp): the refused calls and
  // file accesses of whatever ran in the worker meanwhile.
  std::vector<std::string> take_violations() {
    return confinement_ ? confinement_->take_violations() : std::vector<std::string>{};
  }

  // The report's `isolation`: each mechanism in force (or prepared), then "; missing: " and each one
  // that is not, with the reason. E.g. "netns, no_new_privs, rlimits, scratch dir, landlock (abi 7),
  // seccomp".
  std::string isolation() const;
  bool complete() const { return missing().empty(); }  // for --require-isolation
  std::vector<std::string> missing() const;

  std::filesystem::path const& scratch() const noexcept { return scratch_; }
  // Removes the scratch folder (at exit).
  void leave() const;

 private:
  bool network_isolated_ = false;
  bool no_new_privs_ = false;
  bool rlimits_ = false;
  std::filesystem::path scratch_;
  std::vector<std::string> missing_;  // of the start-up measures
  std::string notes_;                 // informational (e.g. loopback not up)
  std::optional<Confinement> confinement_;
};

// Moves the process into a new network namespace whose loopback interface is up, so that local
// tools (compute-sanitizer talks to its target over local sockets) work while nothing outside the
// machine is reachable. Returns false, with the reason in `note`, when the system refuses.
bool enter_network_namespace(std::string& note);

}  // namespace kopt::worker
