// Shared setup for the GPU tests: evaluation options (screen tier, fixed seed, the worker from this
// build tree), repository paths, and failure descriptions that show what kopt decided and why.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "kopt/eval.hpp"
#include "kopt/result.hpp"

namespace kopt::testing {

inline constexpr std::uint64_t kGpuTestSeed = 20261130;

// Screen tier, fixed seed, kopt-worker from this build ($KOPT_WORKER overrides it), and a compile
// cache of the tests' own in the temporary directory.
EvalOptions gpu_test_options();

// Absolute path of `relative` inside the source tree ($KOPT_SOURCE_DIR overrides the tree, for a
// GPU host that runs binaries built elsewhere).
std::filesystem::path source_path(std::filesystem::path const& relative);

// The whole text of `file` (empty when it cannot be read).
std::string read_text(std::filesystem::path const& file);

// True when Evaluator::create failed only because there is no usable GPU (the test must skip).
bool gpu_missing(Result<std::unique_ptr<Evaluator>> const& evaluator);

// One candidate's verdict with its message, per-size statuses and errors, and diagnostics.
std::string describe(CandidateReport const& candidate);

// The size result named `size`, or nullptr.
SizeResult const* find_size(CandidateReport const& candidate, std::string_view size);

}  // namespace kopt::testing
