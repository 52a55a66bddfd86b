// Where a search's candidates are evaluated: this machine's GPU (KoptCandidateEvaluator), or the evaluation
// farm's workers when a queue is given (FarmCandidateEvaluator, docs/distributed.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "kopt/optimize.hpp"
#include "kopt/result.hpp"

namespace kopt::cli {

// Errors: invalid_argument (a queue URL that cannot be used), and what the evaluator's create() says (no GPU,
// the queue unreachable, no worker in the farm).
Result<std::unique_ptr<CandidateEvaluator>> make_search_evaluator(std::string const& queue,
                                                                  std::uint64_t seed, int device,
                                                                  std::string const& arch);

}  // namespace kopt::cli
