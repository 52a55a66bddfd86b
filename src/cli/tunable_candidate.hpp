// `kopt eval`, `kopt profile` and `kopt energy` on a tunable kernel-mode candidate: one configuration of it,
// made concrete.
#pragma once

#include <string>
#include <vector>

#include "kopt/eval.hpp"
#include "kopt/result.hpp"
#include "kopt/task.hpp"

namespace kopt::cli {

// A kernel-mode candidate whose `// kopt:launch` line names its own knobs (`block=(BLOCK)`: a strategy
// written by `kopt strategies TASK --instantiate`, a kernel written for `kopt optimize --from`) has no launch
// geometry until a configuration gives the knobs values. Each such candidate is rewritten as that
// configuration would be compiled (its values as `#define` lines, the launch line in numbers): a knob a
// -DNAME=value of `flags` or of the candidate's own flags sets takes that value (which must be one of its
// listed values), the others the source's `#ifndef NAME / #define NAME value` default (the listed value
// nearest to it), else their first value. Other candidates are left as they are. Returns one line per
// rewritten candidate, for stderr; an error names the candidate and the knob.
Result<std::vector<std::string>> concretise_tunable_candidates(TaskSpec const& task,
                                                               std::vector<CandidateSource>& candidates,
                                                               std::vector<std::string> const& flags);

}  // namespace kopt::cli
