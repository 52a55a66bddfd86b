// What the worker does with the system-call watch's reports (syscall_watch.hpp) after a request: the
// candidate the request ran ends as `sandbox_violation`, whatever its output, and the worker restarts
// (the candidate's code ran in it and tried to get out). No CUDA here: tests/worker checks it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kopt::worker {

// "refused system call ptrace (3 times); write outside the scratch folder: /tmp/x (openat)": each
// distinct report once, in order, with its count; at most `limit` of them, then "and N more".
std::string summarize_violations(std::vector<std::string> const& reports, std::size_t limit = 6);

// Marks a reply's candidate verdict (evaluate, single_trial, energy) as sandbox_violation and asks for a
// restart. A reply without a candidate verdict (an error, check_task) is left as it is: returns false.
bool mark_sandbox_violation(nlohmann::json& reply, std::vector<std::string> const& reports);

}  // namespace kopt::worker
