#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kopt/float16.hpp"
#include "kopt/verify.hpp"

namespace kopt {
namespace byte_checks_test {

TEST(GuardDamage, FindsFirstChangedByte) {
  std::vector<std::byte> guard(64, kGuardByte);
  EXPECT_FALSE(find_guard_damage(guard).has_value());
  guard[41] = std::byte{0};
  guard[50] = std::byte{1};
  EXPECT_EQ(find_guard_damage(guard), 41u);
  EXPECT_FALSE(find_guard_damage(std::span<std::byte const>{}).has_value());
}

TEST(FirstDifference, ComparesBytes) {
  std::vector<std::byte> a(16, std::byte{3});
  auto b = a;
  EXPECT_FALSE(first_difference(a, b).has_value());
  b[9] = std::byte{4};
  EXPECT_EQ(first_difference(a, b), 9u);
  std::vector<std::byte> shorter(a.begin(), a.begin() + 5);
  EXPECT_EQ(first_difference(a, shorter), 5u);
}

template <class T>
std::vector<std::byte> one(T value) {
  std::vector<std::byte> bytes(sizeof(T));
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

TEST(ElementAsDouble, EveryDType) {
  EXPECT_EQ(element_as_double(DType::f32, one(1.25f).data(), 0), 1.25);
  EXPECT_EQ(element_as_double(DType::f64, one(-3.5).data(), 0), -3.5);
  EXPECT_EQ(element_as_double(DType::f16, one(std::uint16_t{0x3C00}).data(), 0), 1.0);
  EXPECT_EQ(element_as_double(DType::bf16, one(std::uint16_t{0xC040}).data(), 0), -3.0);
  EXPECT_EQ(element_as_double(DType::i8, one(std::int8_t{-7}).data(), 0), -7.0);
  EXPECT_EQ(element_as_double(DType::u8, one(std::uint8_t{250}).data(), 0), 250.0);
  EXPECT_EQ(element_as_double(DType::i16, one(std::int16_t{-300}).data(), 0), -300.0);
  EXPECT_EQ(element_as_double(DType::i32, one(std::int32_t{-70000}).data(), 0), -70000.0);
  EXPECT_EQ(element_as_double(DType::u32, one(std::uint32_t{4000000000U}).data(), 0), 4e9);
  EXPECT_EQ(element_as_double(DType::i64, one(std::int64_t{-5000000000}).data(), 0), -5e9);
  EXPECT_EQ(element_as_double(DType::u64, one(std::uint64_t{1} << 63).data(), 0), std::ldexp(1.0, 63));
  std::vector<float> const several{1, 2, 3};
  EXPECT_EQ(element_as_double(DType::f32, reinterpret_cast<std::byte const*>(several.data()), 2), 3.0);
}

TEST(PoisonPatterns, ReadAsIntended) {
  std::vector<std::byte> a(8, kPoisonA);
  std::vector<std::byte> b(8, kPoisonB);
  EXPECT_TRUE(std::isnan(element_as_double(DType::f32, a.data(), 0)));
  EXPECT_TRUE(std::isnan(element_as_double(DType::bf16, a.data(), 0)));
  EXPECT_TRUE(std::isnan(element_as_double(DType::f16, a.data(), 0)));
  EXPECT_EQ(element_as_double(DType::i32, a.data(), 0), -1.0);
  EXPECT_TRUE(std::isfinite(element_as_double(DType::f32, b.data(), 0)));
  EXPECT_GT(element_as_double(DType::f32, b.data(), 0), 1e38);
  EXPECT_GT(element_as_double(DType::i32, b.data(), 0), 2e9);
}

}  // namespace byte_checks_test
}  // namespace kopt
