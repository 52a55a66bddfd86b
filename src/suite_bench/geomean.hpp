// The geometric mean of a bench's ratios (the suite's and the PyTorch problems' summaries).
#pragma once

#include <cmath>
#include <optional>
#include <vector>

namespace kopt {

// The geomean of `values` (positive ratios); none for an empty list.
inline std::optional<double> geomean_of(std::vector<double> const& values) {
  if (values.empty()) return std::nullopt;
  double log_sum = 0.0;
  for (double v : values) log_sum += std::log(v);
  return std::exp(log_sum / static_cast<double>(values.size()));
}

}  // namespace kopt
