// What `kopt profile` and `kopt energy` start from: the task, the one candidate named on the command line,
// and a screen-tier evaluator on the chosen device (kopt-worker from $KOPT_WORKER or next to kopt).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/exit_code.hpp"
#include "kopt/eval.hpp"
#include "kopt/result.hpp"
#include "kopt/task.hpp"

namespace kopt::cli {

struct SingleCandidate {
  TaskSpec task;
  CandidateSource candidate;  // a tunable kernel at one configuration (concretise_tunable_candidates)
  std::unique_ptr<Evaluator> evaluator;
  std::vector<std::string> notes;  // for stderr: which configuration of a tunable kernel is measured
};

struct SingleCandidateFailure {
  Error error;
  ErrorOrigin origin = ErrorOrigin::input;  // input: the task or the file; environment: no GPU, no worker
};

// Errors name what could not be loaded; `failure` says which kind it was, for the exit code.
std::unique_ptr<SingleCandidate> open_single_candidate(std::string const& task_dir,
                                                       std::string const& candidate, int device,
                                                       SingleCandidateFailure& failure);

}  // namespace kopt::cli
