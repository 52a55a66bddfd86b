// Counter-based random numbers: every draw is a pure function of a stream key and a counter, so any
// element can be generated independently (in parallel, in any order) and reproducibly.
#pragma once

#include <cstdint>
#include <string_view>

namespace kopt {

class RandomStream {
 public:
  explicit RandomStream(std::uint64_t key) : key_(key) {}

  // The stream for (seed, trial, stream id): buffers use their signature index as the id.
  static RandomStream for_trial(std::uint64_t seed, int trial, std::uint64_t stream_id) noexcept;

  // An independent child stream (for example one per matrix row, or per generator stage).
  RandomStream child(std::uint64_t id) const noexcept;

  std::uint64_t bits(std::uint64_t counter) const noexcept;
  double uniform(std::uint64_t counter) const noexcept;       // [0, 1), 53 bits
  double uniform_open(std::uint64_t counter) const noexcept;  // (0, 1]
  double normal(std::uint64_t counter) const noexcept;        // N(0, 1), Box-Muller on 2 draws
  std::uint64_t below(std::uint64_t counter, std::uint64_t bound) const noexcept;  // [0, bound)

 private:
  std::uint64_t key_;
};

// A stable 64-bit id for a name (FNV-1a), used as the stream id of a structured generator.
std::uint64_t stream_id_of(std::string_view name) noexcept;

}  // namespace kopt
