#include "kopt/units.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace kopt {
namespace units_test {

TEST(Units, DurationsKeepThreeSignificantDigits) {
  EXPECT_EQ(format_duration_ms(0.0123), "12.3 µs");
  EXPECT_EQ(format_duration_us(12.3), "12.3 µs");
  EXPECT_EQ(format_duration_us(0.85), "850 ns");
  EXPECT_EQ(format_duration_us(0.0123), "12.3 ns");
  EXPECT_EQ(format_duration_us(1.0), "1.00 µs");
  EXPECT_EQ(format_duration_us(123.456), "123 µs");
  EXPECT_EQ(format_duration_us(1234.0), "1.23 ms");
  EXPECT_EQ(format_duration_ms(2100.0), "2.10 s");
  EXPECT_EQ(format_duration_ms(0.0), "0 ns");
}

TEST(Units, RoundingCarriesIntoTheNextUnit) {
  EXPECT_EQ(format_duration_us(0.9997), "1.00 µs");  // not "1000 ns"
  EXPECT_EQ(format_duration_us(999.7), "1.00 ms");
  EXPECT_EQ(format_duration_us(9.996), "10.0 µs");  // not "10.00"
  EXPECT_EQ(format_duration_us(99.96), "100 µs");
}

TEST(Units, Seconds) {
  EXPECT_EQ(format_duration_ms(123456.0), "123 s");
  EXPECT_EQ(format_duration_ms(1234567.0), "1235 s");  // no larger unit: integer
}

TEST(Units, SiPrefixes) {
  EXPECT_EQ(format_si(4194304.0, "B"), "4.19 MB");
  EXPECT_EQ(format_si(999.0, "B"), "999 B");
  EXPECT_EQ(format_si(1.5e12, "FLOP"), "1.50 TFLOP");
  EXPECT_EQ(format_si(0.5, "B"), "0.500 B");
}

TEST(Units, RatiosAndPlainNumbers) {
  EXPECT_EQ(format_ratio(3.4071), "3.41x");
  EXPECT_EQ(format_ratio(0.5), "0.500x");
  EXPECT_EQ(format_ratio(12.345), "12.3x");
  EXPECT_EQ(format_3sig(1234.4), "1234");  // never an exponent
  EXPECT_EQ(format_3sig(-0.0456), "-0.0456");
  EXPECT_EQ(format_3sig(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(format_3sig(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(format_duration_us(-2.5), "-2.50 µs");
}

}  // namespace units_test
}  // namespace kopt
