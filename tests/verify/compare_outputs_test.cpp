#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "kopt/float16.hpp"
#include "kopt/verify.hpp"

namespace kopt {
namespace compare_outputs_test {

template <class T>
std::vector<std::byte> bytes_of(std::vector<T> const& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

ToleranceSpec tol(double atol, double rtol, double fraction = 0.0) {
  return ToleranceSpec{atol, rtol, fraction};
}

CompareResult compare_f64(std::vector<double> const& ref, std::vector<double> const& got, ToleranceSpec t) {
  auto const r = bytes_of(ref);
  auto const g = bytes_of(got);
  return compare_outputs(DType::f64, r, g, t);
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(CompareOutputs, IdenticalOutputsPass) {
  std::vector<float> const ref{1.0f, -2.0f, 3.5f};
  auto const bytes = bytes_of(ref);
  auto const result = compare_outputs(DType::f32, bytes, bytes, tol(0, 0));
  EXPECT_TRUE(result.passed) << result.summary;
  EXPECT_EQ(result.count, 3u);
  EXPECT_EQ(result.mismatches, 0u);
  EXPECT_FALSE(result.first_bad.has_value());
  EXPECT_DOUBLE_EQ(result.ref_scale, 3.5);
  EXPECT_NE(result.summary.find("all 3 elements within tolerance"), std::string::npos) << result.summary;
}

TEST(CompareOutputs, AbsoluteToleranceScalesWithReferenceMagnitude) {
  // scale = 4, atol = 1e-3: allowance 4e-3 on every element.
  std::vector<double> const ref{4.0, -2.0, 1.0, 0.5};
  auto inside = ref;
  inside[3] += 0.0039;
  auto const pass = compare_f64(ref, inside, tol(1e-3, 0));
  EXPECT_TRUE(pass.passed) << pass.summary;
  EXPECT_NEAR(pass.max_abs_err, 0.0039, 1e-12);
  EXPECT_NEAR(pass.max_rel_err, 0.0078, 1e-12);

  auto outside = ref;
  outside[3] += 0.0041;
  auto const fail = compare_f64(ref, outside, tol(1e-3, 0));
  EXPECT_FALSE(fail.passed);
  EXPECT_EQ(fail.mismatches, 1u);
  ASSERT_TRUE(fail.first_bad.has_value());
  EXPECT_EQ(*fail.first_bad, 3u);
  EXPECT_DOUBLE_EQ(fail.ref_at_first_bad, 0.5);
  EXPECT_DOUBLE_EQ(fail.got_at_first_bad, 0.5041);
  EXPECT_NE(fail.summary.find("1 of 4 elements outside tolerance (max abs err 4.1e-03 at [3]: got 0.5041, "
                              "expected 0.5; atol 0.001 x scale 4, rtol 0)"),
            std::string::npos)
      << fail.summary;
}

TEST(CompareOutputs, RelativeTolerance) {
  std::vector<double> const ref{1000.0, 1.0};
  auto const pass = compare_f64(ref, {1000.9, 1.0}, tol(0, 1e-3));
  EXPECT_TRUE(pass.passed) << pass.summary;
  auto const fail = compare_f64(ref, {1001.1, 1.0}, tol(0, 1e-3));
  EXPECT_FALSE(fail.passed);
  // The small element gets only its own relative allowance.
  auto const small = compare_f64(ref, {1000.0, 1.0011}, tol(0, 1e-3));
  EXPECT_FALSE(small.passed);
}

TEST(CompareOutputs, AllZeroReferenceLeavesNoAbsoluteSlack) {
  std::vector<double> const ref{0.0, 0.0};
  EXPECT_TRUE(compare_f64(ref, {0.0, -0.0}, tol(1e-5, 1e-5)).passed);
  EXPECT_FALSE(compare_f64(ref, {0.0, 1e-20}, tol(1e-5, 1e-5)).passed);
}

TEST(CompareOutputs, CountsPoisonedElementsAsUnwritten) {
  std::vector<float> const ref{1, 2, 3, 4, 5, 6, 7, 8};
  auto const ref_bytes = bytes_of(ref);
  auto got = ref_bytes;
  for (std::size_t element : {2u, 5u, 6u}) {
    for (std::size_t b = 0; b < 4; ++b) got[element * 4 + b] = kPoisonA;
  }
  auto const result = compare_outputs(DType::f32, ref_bytes, got, tol(1e-3, 1e-3, 0.5), kPoisonA);
  EXPECT_FALSE(result.passed) << "unwritten elements fail whatever the mismatch fraction";
  EXPECT_EQ(result.unwritten, 3u);
  EXPECT_EQ(result.mismatches, 0u);
  ASSERT_TRUE(result.first_bad.has_value());
  EXPECT_EQ(*result.first_bad, 2u);
  EXPECT_NE(result.summary.find("3 of 8 elements never written (still poison)"), std::string::npos)
      << result.summary;

  // Without naming the poison the same bytes are NaN where the reference is finite.
  auto const unnamed = compare_outputs(DType::f32, ref_bytes, got, tol(1e-3, 1e-3));
  EXPECT_EQ(unnamed.unwritten, 0u);
  EXPECT_EQ(unnamed.nonfinite_mismatches, 3u);
  EXPECT_FALSE(unnamed.passed);
}

TEST(CompareOutputs, PartlyPoisonedElementIsWrittenButWrong) {
  std::vector<float> const ref{1, 2};
  auto const ref_bytes = bytes_of(ref);
  auto got = ref_bytes;
  got[7] = kPoisonB;  // the top byte of element 1 only
  auto const result = compare_outputs(DType::f32, ref_bytes, got, tol(1e-5, 1e-5), kPoisonB);
  EXPECT_EQ(result.unwritten, 0u);
  EXPECT_EQ(result.mismatches, 1u);
}

TEST(CompareOutputs, PoisonEqualToTheReferenceValueIsNotUnwritten) {
  // u8 255 is the byte 0xFF: an element the reference also has as 0xFF cannot be judged by this run.
  std::vector<std::uint8_t> const ref{255, 7};
  std::vector<std::uint8_t> const got{255, 7};
  auto const result = compare_outputs(DType::u8, bytes_of(ref), bytes_of(got), tol(0, 0), kPoisonA);
  EXPECT_TRUE(result.passed) << result.summary;
  EXPECT_EQ(result.unwritten, 0u);
  // With the other pattern an unwritten element shows.
  std::vector<std::uint8_t> const stale{0x7F, 7};
  auto const other = compare_outputs(DType::u8, bytes_of(ref), bytes_of(stale), tol(0, 0), kPoisonB);
  EXPECT_FALSE(other.passed);
  EXPECT_EQ(other.unwritten, 1u);
}

TEST(CompareOutputs, NaNMustMatchPlacement) {
  std::vector<double> const ref{1.0, kNaN, 3.0, 4.0};
  auto const same = compare_f64(ref, {1.0, kNaN, 3.0, 4.0}, tol(1e-5, 1e-5));
  EXPECT_TRUE(same.passed) << same.summary;
  EXPECT_EQ(same.ref_scale, 4.0) << "non-finite reference values do not count toward the scale";

  auto const moved = compare_f64(ref, {1.0, 2.0, kNaN, 4.0}, tol(1e-5, 1e-5));
  EXPECT_FALSE(moved.passed);
  EXPECT_EQ(moved.nonfinite_mismatches, 2u);
  EXPECT_EQ(moved.mismatches, 2u);
  ASSERT_TRUE(moved.first_bad.has_value());
  EXPECT_EQ(*moved.first_bad, 1u);
  EXPECT_NE(moved.summary.find("2 NaN/Inf misplaced, first at [1]"), std::string::npos) << moved.summary;

  // NaN never passes against a finite reference, however loose the tolerance.
  auto const loose = compare_f64({1.0, 2.0}, {1.0, kNaN}, tol(1e9, 1e9));
  EXPECT_FALSE(loose.passed);
}

TEST(CompareOutputs, InfinityMustMatchSign) {
  std::vector<double> const ref{kInf, -kInf, 1.0};
  EXPECT_TRUE(compare_f64(ref, {kInf, -kInf, 1.0}, tol(1e-5, 1e-5)).passed);
  auto const flipped = compare_f64(ref, {-kInf, -kInf, 1.0}, tol(1e-5, 1e-5));
  EXPECT_FALSE(flipped.passed);
  EXPECT_EQ(flipped.nonfinite_mismatches, 1u);
  EXPECT_FALSE(compare_f64({1e308, 1.0}, {kInf, 1.0}, tol(1.0, 1.0)).passed);
}

TEST(CompareOutputs, ConstantOutputFailsWhereTheReferenceVaries) {
  std::vector<double> const ref{1.0, 2.0, 3.0, 4.0};
  // Everything is allowed to mismatch, yet a constant answer is still rejected.
  auto const constant = compare_f64(ref, {2.5, 2.5, 2.5, 2.5}, tol(0, 0, 1.0));
  EXPECT_FALSE(constant.passed);
  EXPECT_TRUE(constant.constant_output);
  EXPECT_NE(constant.summary.find("constant"), std::string::npos) << constant.summary;

  auto const varying = compare_f64(ref, {2.5, 2.5, 2.5, 2.4}, tol(0, 0, 1.0));
  EXPECT_TRUE(varying.passed) << varying.summary;
  EXPECT_FALSE(varying.constant_output);

  auto const constant_ref = compare_f64({3.0, 3.0, 3.0}, {3.0, 3.0, 3.0}, tol(0, 0));
  EXPECT_TRUE(constant_ref.passed);
  EXPECT_FALSE(constant_ref.constant_output);

  auto const signed_zero = compare_f64({0.0, -0.0}, {0.0, 0.0}, tol(0, 0));
  EXPECT_FALSE(signed_zero.constant_output) << "-0 and +0 are the same value";
}

TEST(CompareOutputs, MismatchFractionBoundary) {
  std::vector<double> ref(100);
  for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = static_cast<double>(i);
  auto two_bad = ref;
  two_bad[10] += 1.0;
  two_bad[20] += 1.0;
  auto const pass = compare_f64(ref, two_bad, tol(0, 1e-6, 0.02));
  EXPECT_TRUE(pass.passed) << pass.summary;
  EXPECT_EQ(pass.mismatches, 2u);
  EXPECT_NE(pass.summary.find("within the allowed fraction"), std::string::npos) << pass.summary;
  auto three_bad = two_bad;
  three_bad[30] += 1.0;
  auto const fail = compare_f64(ref, three_bad, tol(0, 1e-6, 0.02));
  EXPECT_FALSE(fail.passed);
  EXPECT_EQ(fail.mismatches, 3u);
}

TEST(CompareOutputs, BfloatRoundingNeedsMatchingTolerance) {
  // A candidate one bf16 ulp away from the reference everywhere (a different rounding).
  std::vector<std::uint16_t> ref;
  std::vector<std::uint16_t> got;
  for (int i = 1; i <= 64; ++i) {
    double const value = 0.37 * i - 9.1;
    ref.push_back(bf16_bits_from_double(value));
    got.push_back(static_cast<std::uint16_t>(ref.back() + 1));
  }
  auto const loose = compare_outputs(DType::bf16, bytes_of(ref), bytes_of(got), tol(1e-2, 1e-2));
  EXPECT_TRUE(loose.passed) << loose.summary;
  auto const tight = compare_outputs(DType::bf16, bytes_of(ref), bytes_of(got), tol(1e-4, 1e-4));
  EXPECT_FALSE(tight.passed);
  EXPECT_GT(tight.mismatches, 0u);
}

TEST(CompareOutputs, IntegersCompareExactlyUnlessAtolIsSet) {
  std::vector<std::int32_t> const ref{10, 20, 100};
  std::vector<std::int32_t> const off_by_one{10, 21, 100};
  auto const exact = compare_outputs(DType::i32, bytes_of(ref), bytes_of(off_by_one), tol(0, 0.5));
  EXPECT_FALSE(exact.passed) << "rtol alone does not loosen integer comparison";
  EXPECT_NE(exact.summary.find("exact integer comparison"), std::string::npos) << exact.summary;
  auto const loose = compare_outputs(DType::i32, bytes_of(ref), bytes_of(off_by_one), tol(0.01, 0));
  EXPECT_TRUE(loose.passed) << loose.summary;  // 0.01 x scale 100 = 1
  auto const too_far = compare_outputs(DType::i32, bytes_of(ref),
                                       bytes_of(std::vector<std::int32_t>{10, 22, 100}), tol(0.01, 0));
  EXPECT_FALSE(too_far.passed);

  // Beyond 2^53 doubles merge neighbours; exact comparison still sees the difference.
  std::vector<std::int64_t> const big{(std::int64_t{1} << 60) + 1, 5};
  std::vector<std::int64_t> const big_off{(std::int64_t{1} << 60), 5};
  EXPECT_FALSE(compare_outputs(DType::i64, bytes_of(big), bytes_of(big_off), tol(0, 0)).passed);
  EXPECT_TRUE(compare_outputs(DType::i64, bytes_of(big), bytes_of(big), tol(0, 0)).passed);
}

TEST(CompareOutputs, EmptyAndMismatchedBuffers) {
  std::vector<std::byte> const empty;
  auto const none = compare_outputs(DType::f32, empty, empty, tol(0, 0), kPoisonA);
  EXPECT_TRUE(none.passed);
  EXPECT_EQ(none.count, 0u);

  std::vector<float> const ref{1, 2, 3};
  std::vector<float> const shorter{1, 2};
  auto const mismatched = compare_outputs(DType::f32, bytes_of(ref), bytes_of(shorter), tol(1, 1));
  EXPECT_FALSE(mismatched.passed);
  EXPECT_NE(mismatched.summary.find("8 bytes but the reference has 12"), std::string::npos)
      << mismatched.summary;
}

TEST(CompareOutputs, HalfPrecisionDecodesInSoftware) {
  std::vector<std::uint16_t> const ref{f16_bits_from_double(1.5), f16_bits_from_double(-0.25)};
  std::vector<std::uint16_t> const got{f16_bits_from_double(1.5), f16_bits_from_double(-0.5)};
  auto const result = compare_outputs(DType::f16, bytes_of(ref), bytes_of(got), tol(0.1, 0));
  EXPECT_FALSE(result.passed);  // |diff| 0.25 > 0.1 x 1.5
  EXPECT_DOUBLE_EQ(result.max_abs_err, 0.25);
  EXPECT_DOUBLE_EQ(result.ref_scale, 1.5);
}

}  // namespace compare_outputs_test
}  // namespace kopt
