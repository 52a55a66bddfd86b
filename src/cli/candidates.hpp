// Reading the candidate files named on the command line, before any GPU work starts.
#pragma once

#include <string>
#include <vector>

#include "kopt/eval.hpp"
#include "kopt/result.hpp"

namespace kopt::cli {

// Each path must name a readable regular file. Candidates are named by file name; when two share a file
// name, both are named by the path as given so reports stay unambiguous.
Result<std::vector<CandidateSource>> read_candidates(std::vector<std::string> const& paths);

}  // namespace kopt::cli
