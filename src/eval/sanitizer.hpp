// `--sanitize`: one trial of the candidate in a fresh worker under compute-sanitizer, once with
// memcheck (out-of-bounds and misaligned accesses, also reads a guard region cannot see) and once
// with racecheck (shared-memory hazards).
#pragma once

#include <cstdint>
#include <filesystem>

#include "kopt/eval.hpp"
#include "kopt/worker/protocol.hpp"

namespace kopt {

void run_sanitizers(std::filesystem::path const& worker_path, EvalOptions const& options,
                    TaskSpec const& task, std::uint64_t seed, worker::ArtifactRef const& candidate,
                    CandidateReport& report);

// Number of errors in a compute-sanitizer log ("ERROR SUMMARY: 3 errors", "RACECHECK SUMMARY: 2 hazards
// displayed (2 errors, 0 warnings)"); nullopt when the log has no summary line.
std::optional<int> sanitizer_error_count(std::string const& log);

}  // namespace kopt
