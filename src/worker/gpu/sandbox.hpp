// What the worker does to contain untrusted host code (launcher-mode candidates) before it loads
// any of it. docs/security.md states what this contains and what it does not.
#pragma once

#include <filesystem>
#include <string>

namespace kopt::worker {

struct SandboxReport {
  bool network_isolated = false;  // own network namespace (no interfaces but a down loopback)
  bool no_new_privs = false;
  bool rlimits = false;
  std::filesystem::path scratch;  // private working directory, removed at exit
  std::string describe() const;   // e.g. "netns, no_new_privs, rlimits, scratch=/tmp/kopt-w-abc"
  std::string notes;              // what could not be done and why
};

// Applies every measure it can; never fails hard (what is missing is reported). With
// `network_namespace` false the caller is already inside one (see --netns-exec).
SandboxReport enter_sandbox(bool enable, bool network_namespace = true);

// Moves the process into a new network namespace whose loopback interface is up, so that local
// tools (compute-sanitizer talks to its target over local sockets) work while nothing outside the
// machine is reachable. Returns false, with the reason in `note`, when the system refuses.
bool enter_network_namespace(std::string& note);
void leave_sandbox(SandboxReport const& report);

}  // namespace kopt::worker
