#include "kopt/float16.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace kopt {
namespace float16_test {

TEST(Float16, KnownHalfEncodings) {
  EXPECT_EQ(f16_bits_from_double(1.0), 0x3C00);
  EXPECT_EQ(f16_bits_from_double(-2.0), 0xC000);
  EXPECT_EQ(f16_bits_from_double(0.0), 0x0000);
  EXPECT_EQ(f16_bits_from_double(-0.0), 0x8000);
  EXPECT_EQ(f16_bits_from_double(65504.0), 0x7BFF);  // largest finite
  EXPECT_EQ(f16_bits_from_double(65519.0), 0x7BFF);  // below the midpoint to 65536
  EXPECT_EQ(f16_bits_from_double(65520.0), 0x7C00);  // the midpoint rounds to even: overflow to inf
  EXPECT_EQ(f16_bits_from_double(1e300), 0x7C00);
  EXPECT_EQ(f16_bits_from_double(-INFINITY), 0xFC00);
  EXPECT_EQ(f16_bits_from_double(std::ldexp(1.0, -14)), 0x0400);  // smallest normal
  EXPECT_EQ(f16_bits_from_double(std::ldexp(1.0, -24)), 0x0001);  // smallest denormal
  EXPECT_EQ(f16_bits_from_double(std::ldexp(1.0, -25)), 0x0000);  // tie with zero: even wins
  EXPECT_EQ(f16_bits_from_double(std::ldexp(1.0, -25) * 1.000001), 0x0001);
  EXPECT_EQ(f16_bits_from_double(std::ldexp(3.0, -25)), 0x0002);  // tie between 1 and 2 units: even
  EXPECT_EQ(f16_bits_from_double(std::ldexp(1.0, -14) - std::ldexp(1.0, -26)), 0x0400);  // carries to normal
  EXPECT_EQ(f16_bits_from_double(1.0 + std::ldexp(1.0, -11)), 0x3C00);                   // tie: even
  EXPECT_EQ(f16_bits_from_double(1.0 + 3 * std::ldexp(1.0, -11)), 0x3C02);               // tie: even
  EXPECT_EQ(f16_bits_from_double(1.0 + std::ldexp(1.0, -11) + 1e-12), 0x3C01);
}

TEST(Float16, NaNStaysNaN) {
  auto const bits = f16_bits_from_double(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(bits & 0x7C00, 0x7C00);
  EXPECT_NE(bits & 0x03FF, 0);
  EXPECT_TRUE(std::isnan(f16_bits_to_float(bits)));
  auto const bbits = bf16_bits_from_float(std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(std::isnan(bf16_bits_to_float(bbits)));
  EXPECT_TRUE(std::isnan(f16_bits_to_float(0xFFFF)));
  EXPECT_TRUE(std::isnan(bf16_bits_to_float(0xFFFF)));
}

TEST(Float16, KnownBfloatEncodings) {
  EXPECT_EQ(bf16_bits_from_double(1.0), 0x3F80);
  EXPECT_EQ(bf16_bits_from_double(1.0 + std::ldexp(1.0, -8)), 0x3F80);      // tie: even
  EXPECT_EQ(bf16_bits_from_double(1.0 + 3 * std::ldexp(1.0, -8)), 0x3F82);  // tie: even
  EXPECT_EQ(bf16_bits_from_double(-1.5), 0xBFC0);
  EXPECT_EQ(bf16_bits_from_double(3.5e38), 0x7F80);                 // beyond the largest finite bf16: inf
  EXPECT_EQ(bf16_bits_from_double(std::ldexp(1.0, -133)), 0x0001);  // smallest denormal
  EXPECT_FLOAT_EQ(bf16_bits_to_float(0x0001), std::ldexp(1.0f, -133));
}

TEST(Float16, EveryHalfAndBfloatPatternRoundTrips) {
  for (std::uint32_t pattern = 0; pattern <= 0xFFFF; ++pattern) {
    auto const bits = static_cast<std::uint16_t>(pattern);
    float const half = f16_bits_to_float(bits);
    float const bfloat = bf16_bits_to_float(bits);
    if (!std::isnan(half)) {
      EXPECT_EQ(f16_bits_from_float(half), bits) << pattern;
    }
    if (!std::isnan(bfloat)) {
      EXPECT_EQ(bf16_bits_from_float(bfloat), bits) << pattern;
    }
    // bf16 is the top half of a float.
    if (!std::isnan(bfloat)) {
      EXPECT_EQ(std::bit_cast<std::uint32_t>(bfloat) >> 16, pattern) << pattern;
    }
  }
}

TEST(Float16, BfloatMatchesTheBitTrickOnFloats) {
  // For finite floats, round-to-nearest-even bf16 is (bits + 0x7FFF + lsb) >> 16.
  std::uint32_t state = 12345;
  for (int i = 0; i < 200000; ++i) {
    state = state * 1664525U + 1013904223U;
    float const value = std::bit_cast<float>(state);
    if (!std::isfinite(value)) continue;
    std::uint32_t const bits = state;
    auto const expected = static_cast<std::uint16_t>((bits + 0x7FFFU + ((bits >> 16) & 1U)) >> 16);
    EXPECT_EQ(bf16_bits_from_float(value), expected) << value;
  }
}

TEST(Float16, HalfRoundingIsNearest) {
  // Random doubles in the half range: the encoding is the nearest representable value.
  std::uint64_t state = 99;
  for (int i = 0; i < 100000; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    double const value = std::ldexp(static_cast<double>(state >> 11), -53) * 131072.0 - 65536.0;
    auto const bits = f16_bits_from_double(value);
    double const decoded = f16_bits_to_float(bits);
    if (std::isinf(decoded)) {
      EXPECT_GE(std::fabs(value), 65520.0);
      continue;
    }
    double const up = f16_bits_to_float(static_cast<std::uint16_t>(bits + 1));
    double const down = f16_bits_to_float(static_cast<std::uint16_t>(bits - 1));
    double const error = std::fabs(decoded - value);
    if (std::isfinite(up)) {
      EXPECT_LE(error, std::fabs(up - value)) << value;
    }
    if ((bits & 0x7FFF) != 0) {
      EXPECT_LE(error, std::fabs(down - value)) << value;
    }
  }
}

}  // namespace float16_test
}  // namespace kopt
