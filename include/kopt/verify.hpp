// Host-side checks applied to what a candidate produced: output comparison against the reference,
// guard regions, input immutability, determinism. All pure functions over host memory, so they are
// unit-tested on the CPU; the worker calls them after copying device buffers back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "kopt/dtype.hpp"
#include "kopt/task.hpp"

namespace kopt {

// Byte patterns written over outputs before each candidate run. Two different patterns are used
// on the two runs of a trial, so an element the candidate never writes cannot match both times.
inline constexpr std::byte kPoisonA{0xFF};    // NaN for every float type, -1 for signed ints
inline constexpr std::byte kPoisonB{0x7F};    // large finite floats, large positive ints
inline constexpr std::byte kGuardByte{0xA5};  // canary around every buffer

struct CompareResult {
  bool passed = false;
  std::size_t count = 0;
  std::size_t mismatches = 0;  // elements outside tolerance (NaN/Inf misplacement included)
  std::size_t unwritten = 0;   // elements still holding the poison pattern's bytes
  std::size_t nonfinite_mismatches = 0;
  double max_abs_err = 0.0;
  double max_rel_err = 0.0;
  double ref_scale = 0.0;        // max |ref| over finite reference values
  bool constant_output = false;  // candidate output constant while the reference is not
  std::optional<std::size_t> first_bad;
  double ref_at_first_bad = 0.0;
  double got_at_first_bad = 0.0;
  std::string summary;  // one line for people: what failed, where, by how much
};

// Element passes when both are NaN at the same place, both the same infinity, or
// |got - ref| <= atol * max(ref_scale, 1e-30) + rtol * |ref|  (tolerance scaled to the reference's
// magnitude). The whole comparison passes when mismatches <= mismatch_fraction * count and the output
// is not constant where the reference is not. `poison` marks which byte pattern counts as unwritten.
CompareResult compare_outputs(DType dtype, std::span<std::byte const> reference,
                              std::span<std::byte const> candidate, ToleranceSpec const& tolerance,
                              std::optional<std::byte> poison = std::nullopt);

// First offset in `guard` not equal to kGuardByte, if any.
std::optional<std::size_t> find_guard_damage(std::span<std::byte const> guard) noexcept;

// First differing byte offset, if any (input mutation check).
std::optional<std::size_t> first_difference(std::span<std::byte const> a,
                                            std::span<std::byte const> b) noexcept;

// Converts element i of a typed buffer to double (bf16/f16 decoded in software).
double element_as_double(DType dtype, std::byte const* data, std::size_t index) noexcept;

}  // namespace kopt
