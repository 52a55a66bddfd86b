// The masked form in which the worker keeps the reference's results (masked_results.hpp): no window
// of the masked bytes equals the clear answer, opening restores it exactly, and the per-element mask
// the device comparison applies is the same keystream as the host's.
#include "kopt/worker/masked_results.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

namespace kopt::worker {
namespace masked_results_test {

std::vector<std::byte> float_bytes(std::vector<float> const& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<float> ramp(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) * 0.5f - 7.0f;
  return v;
}

TEST(MaskedResults, OpeningRestoresTheClearBytesExactly) {
  auto const clear = float_bytes(ramp(1001));  // not a multiple of 8 bytes: a tail word
  auto const sealed = MaskedResults::seal({clear}, {describe_result(DType::f32, clear)});
  ASSERT_EQ(sealed.size(), 1u);
  EXPECT_EQ(sealed.open(0).bytes(), clear);
}

TEST(MaskedResults, TheMaskedBytesHoldNoCopyOfTheAnswer) {
  auto const clear = float_bytes(ramp(4096));
  auto const sealed = MaskedResults::seal({clear}, {describe_result(DType::f32, clear)});
  auto const& masked = sealed.masked(0);
  ASSERT_EQ(masked.size(), clear.size());
  // What a thief looks for: the answer's first four elements anywhere in memory.
  auto const* pattern = clear.data();
  auto const found = std::search(masked.begin(), masked.end(), pattern, pattern + 16);
  EXPECT_EQ(found, masked.end());
  std::size_t same = 0;
  for (std::size_t i = 0; i < clear.size(); ++i) same += masked[i] == clear[i] ? 1 : 0;
  EXPECT_LT(same, clear.size() / 64);  // about 1/256 of the bytes agree by chance
}

TEST(MaskedResults, EverySealHasItsOwnNonZeroKey) {
  std::set<std::uint64_t> keys;
  for (int i = 0; i < 16; ++i) {
    auto const sealed = MaskedResults::seal({float_bytes(ramp(8))}, {ResultFacts{}});
    EXPECT_NE(sealed.key(), 0u);
    keys.insert(sealed.key());
  }
  EXPECT_EQ(keys.size(), 16u);
}

TEST(MaskedResults, FactsAreTheClearAnswersFacts) {
  std::vector<float> values = ramp(100);
  values[3] = std::numeric_limits<float>::quiet_NaN();
  auto const clear = float_bytes(values);
  ResultFacts const facts = describe_result(DType::f32, clear);
  EXPECT_DOUBLE_EQ(facts.scale, 42.5);  // |99 * 0.5 - 7|, the NaN left out
  EXPECT_TRUE(facts.varies);
  auto const constant = float_bytes(std::vector<float>(50, 3.0f));
  EXPECT_FALSE(describe_result(DType::f32, constant).varies);
  auto const sealed = MaskedResults::seal({clear}, {facts});
  EXPECT_DOUBLE_EQ(sealed.facts(0).scale, 42.5);
}

// The device comparison unmasks element i of an element_size-byte type with element_mask: the same
// bytes apply_mask XORs on the host, for every element size kopt's dtypes have.
TEST(MaskedResults, TheElementMaskIsTheHostKeystream) {
  std::uint64_t const key = 0x0123456789abcdefULL;
  for (std::size_t element_size : {1u, 2u, 4u, 8u}) {
    std::vector<std::byte> zeros(element_size * 37);
    apply_mask(zeros.data(), zeros.size(), key);  // the keystream itself
    for (std::size_t i = 0; i < 37; ++i) {
      std::uint64_t const mask = element_mask(key, i, element_size);
      for (std::size_t k = 0; k < element_size; ++k) {
        EXPECT_EQ(static_cast<unsigned>(zeros[i * element_size + k]), (mask >> (8 * k)) & 0xffU)
            << "element size " << element_size << ", element " << i << ", byte " << k;
      }
    }
  }
}

TEST(ClearBytes, IsWipedWhenItGoesAway) {
  // wipe() is what the destructor calls; checked directly, since reading freed memory is not allowed.
  std::vector<std::byte> bytes = float_bytes(ramp(64));
  wipe(bytes.data(), bytes.size());
  EXPECT_TRUE(std::all_of(bytes.begin(), bytes.end(), [](std::byte b) { return b == std::byte{0}; }));
}

}  // namespace masked_results_test
}  // namespace kopt::worker
