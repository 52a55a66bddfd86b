// SearchHistory: evaluations in order, with a lookup by point.
#include <stdexcept>
#include <utility>

#include "kopt/search.hpp"

namespace kopt {

Evaluation const* SearchHistory::find(Point const& point) const {
  auto const it = by_point_.find(point);
  return it == by_point_.end() ? nullptr : &evaluations_[it->second];
}

Evaluation const& SearchHistory::add(Evaluation evaluation) {
  if (contains(evaluation.point)) {
    throw std::logic_error("SearchHistory::add: point " + to_string(evaluation.point) + " already evaluated");
  }
  evaluation.index = evaluations_.size();
  by_point_.emplace(evaluation.point, evaluation.index);
  evaluations_.push_back(std::move(evaluation));
  return evaluations_.back();
}

}  // namespace kopt
