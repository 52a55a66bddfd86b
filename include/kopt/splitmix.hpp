// splitmix64 (Steele, Lea and Flood 2014): the 64-bit mix at the root of kopt's randomness — trial inputs
// (counter-based streams, kopt/inputs.hpp), the worker's poison and mask keys, and the search's seeds and
// point hashes. One definition, so that every stream is the same function of its seed on every machine.
#pragma once

#include <cstdint>

namespace kopt {

// The splitmix64 increment: 2^64 divided by the golden ratio.
inline constexpr std::uint64_t kSplitMixGamma = 0x9E3779B97F4A7C15ULL;

// The splitmix64 finaliser: a bijective avalanche of 64 bits.
constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31U);
}

// One splitmix64 step from state `x`: mix64(x + gamma).
constexpr std::uint64_t splitmix64(std::uint64_t x) noexcept {
  return mix64(x + kSplitMixGamma);
}

}  // namespace kopt
