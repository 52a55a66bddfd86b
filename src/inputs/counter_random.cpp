#include "inputs/counter_random.hpp"

#include <cmath>
#include <numbers>

#include "kopt/inputs.hpp"

namespace kopt {
namespace {

constexpr double kTwoPow53 = 9007199254740992.0;

}  // namespace

RandomStream RandomStream::for_trial(std::uint64_t seed, int trial, std::uint64_t stream_id) noexcept {
  std::uint64_t key = mix64(seed + kSplitMixGamma);
  key = mix64(
      key ^ (static_cast<std::uint64_t>(static_cast<std::int64_t>(trial)) * kSplitMixGamma + 0x51ED27A3ULL));
  key = mix64(key ^ mix64(stream_id + 0x2545F4914F6CDD1DULL));
  return RandomStream(key);
}

RandomStream RandomStream::child(std::uint64_t id) const noexcept {
  return RandomStream(mix64(key_ ^ mix64((id + 1) * kSplitMixGamma)));
}

std::uint64_t RandomStream::bits(std::uint64_t counter) const noexcept {
  // splitmix64 started at key_ and advanced `counter + 1` steps.
  return mix64(key_ + (counter + 1) * kSplitMixGamma);
}

double RandomStream::uniform(std::uint64_t counter) const noexcept {
  return static_cast<double>(bits(counter) >> 11) / kTwoPow53;
}

double RandomStream::uniform_open(std::uint64_t counter) const noexcept {
  return static_cast<double>((bits(counter) >> 11) + 1) / kTwoPow53;
}

double RandomStream::normal(std::uint64_t counter) const noexcept {
  double const radius = std::sqrt(-2.0 * std::log(uniform_open(2 * counter)));
  double const angle = 2.0 * std::numbers::pi * uniform(2 * counter + 1);
  return radius * std::cos(angle);
}

std::uint64_t RandomStream::below(std::uint64_t counter, std::uint64_t bound) const noexcept {
  // Modulo bias is at most bound / 2^64: negligible for test data.
  return bound == 0 ? 0 : bits(counter) % bound;
}

std::uint64_t stream_id_of(std::string_view name) noexcept {
  std::uint64_t hash = 0xCBF29CE484222325ULL;
  for (char c : name) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001B3ULL;
  }
  return hash | (std::uint64_t{1} << 63);  // never equal to a buffer index
}

}  // namespace kopt
