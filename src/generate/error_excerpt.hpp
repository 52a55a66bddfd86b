// Private to src/generate: what a repair prompt tells the model about the kernel's failure.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "kopt/eval.hpp"

namespace kopt::generate_detail {

// The head of `text` in whole lines within `max_bytes` (a line longer than that is cut), with a note of how
// many lines were left out. A compiler's first errors matter most, so the head is what stays.
std::string head_lines(std::string_view text, std::size_t max_bytes);

// The failure of an evaluated kernel for the model: its status, the report's message, the compiler's log
// and each failing size case with its message and errors, within `max_bytes`.
std::string error_excerpt(CandidateReport const& report, std::size_t max_bytes);

}  // namespace kopt::generate_detail
