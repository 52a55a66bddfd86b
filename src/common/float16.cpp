#include "kopt/float16.hpp"

#include <bit>
#include <cmath>

namespace kopt {
namespace {

// A 16-bit binary floating-point format: 1 sign bit, `exponent_bits`, `mantissa_bits` (stored).
struct Format16 {
  int exponent_bits;
  int mantissa_bits;
};

constexpr Format16 kHalf{5, 10};
constexpr Format16 kBfloat{8, 7};

// Shifts `significand` right by `shift` (1..63) rounding to nearest, ties to even.
std::uint64_t shift_round_even(std::uint64_t significand, int shift) noexcept {
  std::uint64_t const quotient = significand >> shift;
  std::uint64_t const remainder = significand & ((std::uint64_t{1} << shift) - 1);
  std::uint64_t const half = std::uint64_t{1} << (shift - 1);
  if (remainder > half || (remainder == half && (quotient & 1U) != 0)) return quotient + 1;
  return quotient;
}

std::uint16_t encode(double value, Format16 format) noexcept {
  auto const bits = std::bit_cast<std::uint64_t>(value);
  auto const sign = static_cast<std::uint16_t>((bits >> 48) & 0x8000U);
  int const mantissa_bits = format.mantissa_bits;
  auto const exponent_all_ones =
      static_cast<std::uint16_t>(((1U << format.exponent_bits) - 1) << mantissa_bits);
  auto const quiet_bit = static_cast<std::uint16_t>(1U << (mantissa_bits - 1));
  if (std::isnan(value)) return static_cast<std::uint16_t>(sign | exponent_all_ones | quiet_bit);
  if (std::isinf(value)) return static_cast<std::uint16_t>(sign | exponent_all_ones);

  int const double_exponent = static_cast<int>((bits >> 52) & 0x7FFU);
  if (double_exponent == 0) return sign;  // zero or a double denormal: far below the smallest denormal
  std::uint64_t const significand = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
  int const exponent = double_exponent - 1023;
  int const bias = (1 << (format.exponent_bits - 1)) - 1;
  int const min_exponent = 1 - bias;

  if (exponent >= min_exponent) {
    std::uint64_t rounded = shift_round_even(significand, 52 - mantissa_bits);
    int result_exponent = exponent;
    if (rounded == (std::uint64_t{1} << (mantissa_bits + 1))) {  // carried into the next binade
      rounded >>= 1;
      ++result_exponent;
    }
    if (result_exponent > bias) return static_cast<std::uint16_t>(sign | exponent_all_ones);
    auto const stored_mantissa = rounded & ((std::uint64_t{1} << mantissa_bits) - 1);
    return static_cast<std::uint16_t>(
        sign | (static_cast<unsigned>(result_exponent + bias) << mantissa_bits) | stored_mantissa);
  }
  // Denormal in the target: count units of 2^(min_exponent - mantissa_bits). A carry into the lowest
  // normal binade yields exactly the encoding of the smallest normal.
  int const shift = 52 - mantissa_bits + (min_exponent - exponent);
  if (shift > 53) return sign;  // below half of the smallest denormal
  return static_cast<std::uint16_t>(sign | shift_round_even(significand, shift));
}

float decode(std::uint16_t bits, Format16 format) noexcept {
  int const mantissa_bits = format.mantissa_bits;
  bool const negative = (bits & 0x8000U) != 0;
  unsigned const exponent_field = (bits >> mantissa_bits) & ((1U << format.exponent_bits) - 1);
  unsigned const mantissa = bits & ((1U << mantissa_bits) - 1);
  int const bias = (1 << (format.exponent_bits - 1)) - 1;
  double magnitude = 0.0;
  if (exponent_field == (1U << format.exponent_bits) - 1) {
    magnitude = mantissa != 0 ? std::nan("") : HUGE_VAL;
  } else if (exponent_field == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), 1 - bias - mantissa_bits);
  } else {
    magnitude = std::ldexp(static_cast<double>(mantissa | (1U << mantissa_bits)),
                           static_cast<int>(exponent_field) - bias - mantissa_bits);
  }
  return static_cast<float>(negative ? -magnitude : magnitude);
}

}  // namespace

std::uint16_t f16_bits_from_double(double value) noexcept {
  return encode(value, kHalf);
}
std::uint16_t bf16_bits_from_double(double value) noexcept {
  return encode(value, kBfloat);
}
std::uint16_t f16_bits_from_float(float value) noexcept {
  return encode(static_cast<double>(value), kHalf);
}
std::uint16_t bf16_bits_from_float(float value) noexcept {
  return encode(static_cast<double>(value), kBfloat);
}
float f16_bits_to_float(std::uint16_t bits) noexcept {
  return decode(bits, kHalf);
}
float bf16_bits_to_float(std::uint16_t bits) noexcept {
  return decode(bits, kBfloat);
}

}  // namespace kopt
