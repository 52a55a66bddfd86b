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

// Applies every measure it can; never fails hard (what is missing is reported).
SandboxReport enter_sandbox(bool enable);
void leave_sandbox(SandboxReport const& report);

}  // namespace kopt::worker
