// PointSampler: uniform sampling without replacement over the valid points of a space.
#include "search/point_sampler.hpp"

#include <numeric>
#include <utility>

namespace kopt::search_detail {

PointSampler::PointSampler(SearchSpace const& space, std::uint64_t seed)
    : space_(&space), dims_(space.dimensions()), count_(point_count(dims_)), rng_(seed) {
  if (count_ > 0 && count_ <= kMaxEnumerated) {
    order_.resize(static_cast<std::size_t>(count_));
    std::iota(order_.begin(), order_.end(), std::uint64_t{0});
  }
}

std::optional<Point> PointSampler::next(SearchHistory const& history) {
  if (space_ == nullptr || count_ == 0) return std::nullopt;
  if (!order_.empty()) {
    while (next_ < order_.size()) {
      std::uniform_int_distribution<std::size_t> pick(next_, order_.size() - 1);
      std::swap(order_[next_], order_[pick(rng_)]);
      Point point = point_at(dims_, order_[next_++]);
      if (space_->is_valid(point) && !history.contains(point)) return point;
    }
    return std::nullopt;
  }
  std::uniform_int_distribution<std::uint64_t> pick(0, count_ - 1);
  for (int attempt = 0; attempt < kMaxRejections; ++attempt) {
    Point point = point_at(dims_, pick(rng_));
    if (space_->is_valid(point) && !history.contains(point)) return point;
  }
  return std::nullopt;
}

}  // namespace kopt::search_detail
