// Deterministic hashing for the search module: seeds, point hashes, uniform values from hashes.
#pragma once

#include <cstdint>

#include "kopt/search.hpp"
#include "kopt/splitmix.hpp"

namespace kopt::search_detail {

using kopt::splitmix64;

inline std::uint64_t mix(std::uint64_t a, std::uint64_t b) noexcept {
  return splitmix64(a ^ splitmix64(b));
}

inline std::uint64_t hash_point(Point const& point, std::uint64_t seed) noexcept {
  std::uint64_t h = splitmix64(seed);
  for (int v : point) h = mix(h, static_cast<std::uint64_t>(static_cast<std::int64_t>(v)));
  return h;
}

// Uniform in [0, 1) from a hash.
inline double unit(std::uint64_t h) noexcept {
  return static_cast<double>(h >> 11U) * 0x1.0p-53;
}

}  // namespace kopt::search_detail
