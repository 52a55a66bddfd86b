// Internals of compare_outputs shared by its parallel implementation, the serial reference
// implementation that tests check it against, and the code that turns tallies into a CompareResult.
// Private to the verify module (and its tests).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <type_traits>

#include "kopt/dtype.hpp"
#include "kopt/task.hpp"
#include "kopt/verify.hpp"

namespace kopt::detail {

inline constexpr double kTinyScale = 1e-30;  // floor of the reference scale and of |ref| in relative errors

// Buffers below this many elements are compared on the calling thread only.
inline constexpr std::size_t kParallelCompareThreshold = std::size_t{1} << 20;

struct CompareLocation {
  std::size_t index = 0;
  double got = 0.0;
  double expected = 0.0;
};

// Pass 1 over a contiguous range of the reference.
struct ReferenceTally {
  double ref_scale = 0.0;         // max |ref| over finite values
  bool reference_varies = false;  // some value differs from element 0 (NaN equals NaN, -0 equals +0)

  // Folds in the tally of another range (order does not matter for pass 1).
  void merge(ReferenceTally const& other) noexcept;
};

// Pass 2 over a contiguous range [begin, end) of both buffers.
struct ElementTally {
  bool candidate_constant = true;  // every candidate element in the range has element 0's bytes
  std::size_t unwritten = 0;
  std::size_t mismatches = 0;
  std::size_t nonfinite_mismatches = 0;
  std::size_t finite_mismatches = 0;
  double max_abs_err = 0.0;
  double max_rel_err = 0.0;
  std::optional<CompareLocation> first_bad;  // first unwritten or mismatching element
  std::optional<CompareLocation> first_unwritten;
  std::optional<CompareLocation> first_nonfinite;
  std::optional<CompareLocation> max_error_at;  // first element with the largest finite abs error

  // Folds in the tally of the range that directly follows this one: counts add up, "first"
  // locations keep the lower index, and among equal maximum errors the earlier element wins.
  void merge_following(ElementTally const& later) noexcept;
};

// The result for buffers whose sizes do not fit the dtype, or that are empty; nullopt otherwise.
std::optional<CompareResult> compare_trivial_cases(DType dtype, std::span<std::byte const> reference,
                                                   std::span<std::byte const> candidate);

// Whether elements compare bitwise (integers without an absolute tolerance).
bool compares_exactly(DType dtype, ToleranceSpec const& tolerance) noexcept;

// Turns the tallies of the whole buffer into the result, including the summary line.
CompareResult finish_compare(DType dtype, std::span<std::byte const> candidate, std::size_t count,
                             ToleranceSpec const& tolerance, ReferenceTally const& reference,
                             ElementTally const& elements);

// compare_outputs with the two passes split into `chunks` contiguous ranges, each on its own thread
// (chunk 0 on the calling thread). Same result for every chunk count >= 1.
CompareResult compare_outputs_chunked(DType dtype, std::span<std::byte const> reference,
                                      std::span<std::byte const> candidate, ToleranceSpec const& tolerance,
                                      std::optional<std::byte> poison, std::size_t chunks);

// Reference implementation: one thread, one loop, every element through element_as_double.
CompareResult compare_outputs_serial(DType dtype, std::span<std::byte const> reference,
                                     std::span<std::byte const> candidate, ToleranceSpec const& tolerance,
                                     std::optional<std::byte> poison = std::nullopt);

// Per-dtype element decoding for the typed hot loops: `Bits` is the raw element, `decode` gives the
// same double as element_as_double (bit for bit).
template <class Value>
struct PlainCodec {
  using Bits = std::conditional_t<
      sizeof(Value) == 1, std::uint8_t,
      std::conditional_t<sizeof(Value) == 2, std::uint16_t,
                         std::conditional_t<sizeof(Value) == 4, std::uint32_t, std::uint64_t>>>;
  static_assert(sizeof(Bits) == sizeof(Value));
  double decode(Bits bits) const noexcept { return static_cast<double>(std::bit_cast<Value>(bits)); }
};

// bfloat16 is the top half of a float. NaN decodes to the canonical quiet NaN with the sign kept,
// as bf16_bits_to_float does.
struct Bfloat16Codec {
  using Bits = std::uint16_t;
  static double decode(Bits bits) noexcept {
    if ((bits & 0x7F80U) == 0x7F80U && (bits & 0x007FU) != 0) {
      double const nan = std::numeric_limits<double>::quiet_NaN();
      return (bits & 0x8000U) != 0 ? -nan : nan;
    }
    return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16));
  }
};

// binary16 through a table of all 65536 values, built once from f16_bits_to_float.
struct Float16Codec {
  using Bits = std::uint16_t;
  float const* table;  // 65536 entries
  double decode(Bits bits) const noexcept { return static_cast<double>(table[bits]); }
};

// The shared f16 table (built on first use, thread-safe).
float const* float16_table();

template <class Codec>
typename Codec::Bits load_bits(std::byte const* data, std::size_t index) noexcept {
  typename Codec::Bits bits;
  std::memcpy(&bits, data + index * sizeof(bits), sizeof(bits));
  return bits;
}

}  // namespace kopt::detail
