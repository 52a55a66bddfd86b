#include <algorithm>
#include <cmath>
#include <vector>

#include "kopt/measure.hpp"

namespace kopt {
namespace {

// Percentile p in [0, 1] of sorted values, interpolating linearly between the two nearest ranks
// (position p * (n - 1), the convention of NumPy's default and of R type 7).
double percentile_sorted(std::vector<double> const& sorted, double p) {
  double const position = p * static_cast<double>(sorted.size() - 1);
  auto const lower = static_cast<std::size_t>(std::floor(position));
  std::size_t const upper = std::min(lower + 1, sorted.size() - 1);
  double const fraction = position - static_cast<double>(lower);
  return sorted[lower] + fraction * (sorted[upper] - sorted[lower]);
}

}  // namespace

SampleStats summarize(std::span<double const> samples) {
  SampleStats stats;
  if (samples.empty()) return stats;
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  stats.count = static_cast<int>(sorted.size());
  stats.min = sorted.front();
  stats.max = sorted.back();
  double sum = 0.0;
  for (double value : sorted) sum += value;
  stats.mean = sum / static_cast<double>(sorted.size());
  stats.median = percentile_sorted(sorted, 0.5);
  stats.q1 = percentile_sorted(sorted, 0.25);
  stats.q3 = percentile_sorted(sorted, 0.75);
  return stats;
}

}  // namespace kopt
