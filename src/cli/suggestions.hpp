// "Did you mean" for the command line: the known word nearest to a mistyped one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kopt::cli {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbours
// each cost 1 ("evl" -> "eval": 1, "chek" -> "check": 1, "--budgte" -> "--budget": 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `word`, when it is near enough to be what was meant: at most one edit for
// words of up to four letters, two up to eight, three beyond; or a candidate that starts with a word
// of three letters or more ("--bud" -> "--budget") when only one does. Ties go to the earlier candidate.
std::optional<std::string> nearest_word(std::string_view word, std::vector<std::string> const& candidates);

}  // namespace kopt::cli
