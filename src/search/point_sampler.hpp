// Valid, not yet evaluated points of a space, uniformly at random without replacement.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "kopt/search.hpp"

namespace kopt::search_detail {

class PointSampler {
 public:
  // Spaces up to this many points are sampled from a lazily shuffled list of every index; larger
  // ones by rejection (kMaxRejections tries per draw).
  static constexpr std::uint64_t kMaxEnumerated = std::uint64_t{1} << 22U;
  static constexpr int kMaxRejections = 10000;

  PointSampler() = default;
  PointSampler(SearchSpace const& space, std::uint64_t seed);
  // nullopt when no valid unevaluated point is left (or none was found by rejection).
  std::optional<Point> next(SearchHistory const& history);

 private:
  SearchSpace const* space_ = nullptr;
  std::vector<Dimension> dims_;
  std::uint64_t count_ = 0;
  std::vector<std::uint64_t> order_;  // enumerated mode: order_[0, next_) already drawn
  std::size_t next_ = 0;
  std::mt19937_64 rng_;
};

}  // namespace kopt::search_detail
