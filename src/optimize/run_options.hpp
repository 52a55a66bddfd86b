// Private to src/optimize: the optimize options as the run's options document (schema kopt.optimize/1),
// and back. The fields every run shares are read by the run layer (run_request_from_json); optimize adds
// its MCTS constants.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "kopt/optimize.hpp"

namespace kopt::optimize_detail {

// The search-memory snapshot is added and read by RunLog.
nlohmann::json options_json(OptimizeOptions const& options, std::string const& source);
Result<OptimizeOptions> options_from_json(nlohmann::json const& json, RunId run);

}  // namespace kopt::optimize_detail
