// Helpers shared by the search tests: a smooth bowl objective and small spaces.
#pragma once

#include <cmath>
#include <set>
#include <vector>

#include "kopt/search.hpp"

namespace kopt::test {

// Speedup exp(-0.1 * |p - centre|^2) on two size cases: unimodal, optimum exactly at `centre`.
class BowlObjective final : public Objective {
 public:
  explicit BowlObjective(Point centre) : centre_(std::move(centre)) {}
  Outcome evaluate(Point const& point) override {
    ++calls;
    double d2 = 0.0;
    for (std::size_t i = 0; i < point.size(); ++i) d2 += (point[i] - centre_[i]) * (point[i] - centre_[i]);
    double const speedup = std::exp(-0.1 * d2) * 2.0;
    Outcome outcome;
    outcome.reference_us = {100.0, 200.0};
    outcome.size_medians_us = {100.0 / speedup, 200.0 / speedup};
    outcome.size_iqr_us = {0.0, 0.0};
    return outcome;
  }
  int calls = 0;

 private:
  Point centre_;
};

inline std::vector<Dimension> cube(int dims, int size) {
  std::vector<Dimension> result;
  result.reserve(static_cast<std::size_t>(dims));
  for (int i = 0; i < dims; ++i) result.push_back(Dimension{"D" + std::to_string(i), size});
  return result;
}

inline std::set<Point> distinct_points(SearchResult const& result) {
  std::set<Point> points;
  for (auto const& e : result.trajectory) points.insert(e.point);
  return points;
}

inline Outcome timed(std::vector<double> medians, std::vector<double> iqr, std::vector<double> reference) {
  Outcome outcome;
  outcome.size_medians_us = std::move(medians);
  outcome.size_iqr_us = std::move(iqr);
  outcome.reference_us = std::move(reference);
  return outcome;
}

}  // namespace kopt::test
