#include <gtest/gtest.h>

#include "kopt/profile.hpp"

namespace kopt {
namespace ncu_number_test {

TEST(ParseNcuNumber, PlainIntegersDecimalsAndExponents) {
  EXPECT_EQ(parse_ncu_number("0"), 0.0);
  EXPECT_EQ(parse_ncu_number("132"), 132.0);
  EXPECT_EQ(parse_ncu_number("16.31"), 16.31);
  EXPECT_EQ(parse_ncu_number("-2.5"), -2.5);
  EXPECT_EQ(parse_ncu_number("+7"), 7.0);
  EXPECT_EQ(parse_ncu_number("4.0e-05"), 4.0e-05);
  EXPECT_EQ(parse_ncu_number("1E3"), 1000.0);
  EXPECT_EQ(parse_ncu_number(".5"), 0.5);
  EXPECT_EQ(parse_ncu_number("  86.12 "), 86.12);
}

TEST(ParseNcuNumber, ThousandsSeparatorsAreStripped) {
  EXPECT_EQ(parse_ncu_number("268,449,792"), 268449792.0);
  EXPECT_EQ(parse_ncu_number("1,024"), 1024.0);
  EXPECT_EQ(parse_ncu_number("152,064.5"), 152064.5);
  EXPECT_EQ(parse_ncu_number("-1,000,000"), -1000000.0);
}

TEST(ParseNcuNumber, MissingValuesAreAbsentNotZero) {
  EXPECT_FALSE(parse_ncu_number("").has_value());
  EXPECT_FALSE(parse_ncu_number("   ").has_value());
  EXPECT_FALSE(parse_ncu_number("n/a").has_value());
  EXPECT_FALSE(parse_ncu_number("N/A").has_value());
}

TEST(ParseNcuNumber, MalformedGroupingAndTextAreRejected) {
  EXPECT_FALSE(parse_ncu_number("9,00").has_value());  // a decimal comma, not a thousands group
  EXPECT_FALSE(parse_ncu_number("1234,567").has_value());
  EXPECT_FALSE(parse_ncu_number("1,2345").has_value());
  EXPECT_FALSE(parse_ncu_number("1,").has_value());
  EXPECT_FALSE(parse_ncu_number(",123").has_value());
  EXPECT_FALSE(parse_ncu_number("12 34").has_value());
  EXPECT_FALSE(parse_ncu_number("(256, 1, 1)").has_value());
  EXPECT_FALSE(parse_ncu_number("NVIDIA H200").has_value());
  EXPECT_FALSE(parse_ncu_number("inf").has_value());
  EXPECT_FALSE(parse_ncu_number("nan").has_value());
  EXPECT_FALSE(parse_ncu_number("1e").has_value());
  EXPECT_FALSE(parse_ncu_number("-").has_value());
  EXPECT_FALSE(parse_ncu_number(".").has_value());
  EXPECT_FALSE(parse_ncu_number("12%").has_value());
}

}  // namespace ncu_number_test
}  // namespace kopt
