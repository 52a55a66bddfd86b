// Point enumeration helpers and GridSpace, the dense grid with an optional constraint.
#include <stdexcept>
#include <utility>

#include "kopt/search.hpp"

namespace kopt {

std::string to_string(Point const& point) {
  std::string text = "[";
  for (std::size_t i = 0; i < point.size(); ++i) {
    if (i > 0) text += ",";
    text += std::to_string(point[i]);
  }
  return text + "]";
}

std::uint64_t point_count(std::vector<Dimension> const& dims) {
  if (dims.empty()) return 0;
  std::uint64_t count = 1;
  for (auto const& dim : dims) {
    if (dim.size <= 0) return 0;
    count *= static_cast<std::uint64_t>(dim.size);
  }
  return count;
}

Point point_at(std::vector<Dimension> const& dims, std::uint64_t index) {
  Point point(dims.size(), 0);
  for (std::size_t i = dims.size(); i-- > 0;) {
    auto const size = static_cast<std::uint64_t>(dims[i].size);
    point[i] = static_cast<int>(index % size);
    index /= size;
  }
  return point;
}

std::uint64_t index_of(std::vector<Dimension> const& dims, Point const& point) {
  if (!in_range(dims, point)) throw std::invalid_argument("index_of: point out of range " + to_string(point));
  std::uint64_t index = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    index = index * static_cast<std::uint64_t>(dims[i].size) + static_cast<std::uint64_t>(point[i]);
  }
  return index;
}

bool in_range(std::vector<Dimension> const& dims, Point const& point) {
  if (point.size() != dims.size()) return false;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (point[i] < 0 || point[i] >= dims[i].size) return false;
  }
  return true;
}

GridSpace::GridSpace(std::vector<Dimension> dims, Constraint constraint, std::optional<Point> start)
    : dims_(std::move(dims)), constraint_(std::move(constraint)), start_(std::move(start)) {}

bool GridSpace::is_valid(Point const& point) const {
  if (!in_range(dims_, point)) return false;
  return !constraint_ || constraint_(point);
}

std::vector<Action> GridSpace::actions(Point const& point) const {
  std::vector<Action> result;
  if (!in_range(dims_, point)) return result;
  for (std::size_t i = 0; i < dims_.size(); ++i) {
    for (int step : {+1, -1}) {
      Point target = point;
      target[i] += step;
      if (!is_valid(target)) continue;
      result.push_back(Action{dims_[i].name + (step > 0 ? ":+1" : ":-1"), std::move(target)});
    }
  }
  return result;
}

}  // namespace kopt
