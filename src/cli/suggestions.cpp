#include "cli/suggestions.hpp"

#include <algorithm>
#include <cstddef>

namespace kopt::cli {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic programme: the one before the previous is needed for swaps.
  std::vector<std::size_t> before(b.size() + 1);
  std::vector<std::size_t> previous(b.size() + 1);
  std::vector<std::size_t> current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t const substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::optional<std::string> nearest_word(std::string_view word, std::vector<std::string> const& candidates) {
  // Long inputs (a pasted file as an argument) are never a typo of a command or an option.
  constexpr std::size_t kLongest = 64;
  if (word.empty() || word.size() > kLongest) return std::nullopt;
  std::string_view const bare = word.substr(
      word.find_first_not_of('-') == std::string_view::npos ? word.size() : word.find_first_not_of('-'));
  std::size_t const allowed = bare.size() <= 4 ? 1 : bare.size() <= 8 ? 2 : 3;
  std::optional<std::string> best;
  std::size_t best_distance = allowed + 1;
  for (auto const& candidate : candidates) {
    std::size_t const distance = edit_distance(word, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  if (best) return best;
  if (bare.size() < 3) return std::nullopt;
  std::optional<std::string> prefixed;
  for (auto const& candidate : candidates) {
    if (candidate.size() > word.size() && candidate.compare(0, word.size(), word) == 0) {
      if (prefixed) return std::nullopt;  // ambiguous
      prefixed = candidate;
    }
  }
  return prefixed;
}

}  // namespace kopt::cli
