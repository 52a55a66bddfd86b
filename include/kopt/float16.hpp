// IEEE binary16 (f16) and bfloat16 (bf16) conversions in software, for host-side input generation and
// output comparison. Narrowing rounds to nearest, ties to even; NaN stays NaN (quiet, sign kept), values
// beyond the largest finite round to infinity, and denormals are produced and decoded exactly.
#pragma once

#include <cstdint>

namespace kopt {

// Narrowing from double rounds once (no float intermediate), so results are correctly rounded.
std::uint16_t f16_bits_from_double(double value) noexcept;
std::uint16_t bf16_bits_from_double(double value) noexcept;
std::uint16_t f16_bits_from_float(float value) noexcept;
std::uint16_t bf16_bits_from_float(float value) noexcept;

// Widening is exact: every f16 and bf16 value is representable as a float.
float f16_bits_to_float(std::uint16_t bits) noexcept;
float bf16_bits_to_float(std::uint16_t bits) noexcept;

}  // namespace kopt
