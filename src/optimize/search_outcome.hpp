// Private to src/optimize (and the searches built on its records): what the search module sees of a
// recorded evaluation.
#pragma once

#include "kopt/search.hpp"
#include "optimize/run_log.hpp"

namespace kopt::optimize_detail {

// outcome_of() as a search Outcome; a verified kernel of a task that times no size scores as the reference
// (one size of 1 us against 1 us), so the search can compare it.
Outcome search_outcome(RecordedEvaluation const& evaluation,
                       OptimizeObjective objective = OptimizeObjective::runtime);

}  // namespace kopt::optimize_detail
