#include "kopt/candidate_status.hpp"

#include <array>
#include <utility>

namespace kopt {
namespace {

// Pipeline order: a status earlier in this table is reported over a later one.
constexpr std::array<std::pair<CandidateStatus, std::string_view>, 12> kStatuses{{
    {CandidateStatus::compile_error, "compile_error"},
    // A refused call can happen while loading (a constructor), so it ranks right after a compile error;
    // it outranks every later failure: whatever the output, the candidate tried to leave its sandbox.
    {CandidateStatus::sandbox_violation, "sandbox_violation"},
    {CandidateStatus::load_error, "load_error"},
    {CandidateStatus::launch_error, "launch_error"},
    {CandidateStatus::runtime_error, "runtime_error"},
    {CandidateStatus::timeout, "timeout"},
    {CandidateStatus::out_of_bounds_write, "out_of_bounds_write"},
    {CandidateStatus::input_mutated, "input_mutated"},
    {CandidateStatus::wrong_output, "wrong_output"},
    {CandidateStatus::nondeterministic, "nondeterministic"},
    {CandidateStatus::implausibly_fast, "implausibly_fast"},
    {CandidateStatus::ok, "ok"},
}};

}  // namespace

std::string_view to_string(CandidateStatus status) noexcept {
  for (auto const& [value, name] : kStatuses) {
    if (value == status) return name;
  }
  return "unknown";
}

std::optional<CandidateStatus> candidate_status_from_string(std::string_view text) noexcept {
  for (auto const& [value, name] : kStatuses) {
    if (name == text) return value;
  }
  return std::nullopt;
}

int pipeline_rank(CandidateStatus status) noexcept {
  for (std::size_t i = 0; i < kStatuses.size(); ++i) {
    if (kStatuses[i].first == status) return static_cast<int>(i);
  }
  return static_cast<int>(kStatuses.size());
}

}  // namespace kopt
