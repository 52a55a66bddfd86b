#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kopt/float16.hpp"
#include "kopt/verify.hpp"
#include "verify/compare_detail.hpp"

namespace kopt {
namespace compare_parallel_test {

constexpr std::size_t kCount = 3'000'017;  // above the parallel threshold, not a multiple of any chunk count
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::uint64_t bits_of(double value) {
  return std::bit_cast<std::uint64_t>(value);
}

// Field by field, doubles bit for bit (so NaN payloads and signs must match too).
void expect_same_result(CompareResult const& got, CompareResult const& want, std::string const& label) {
  SCOPED_TRACE(label);
  EXPECT_EQ(got.passed, want.passed);
  EXPECT_EQ(got.count, want.count);
  EXPECT_EQ(got.mismatches, want.mismatches);
  EXPECT_EQ(got.unwritten, want.unwritten);
  EXPECT_EQ(got.nonfinite_mismatches, want.nonfinite_mismatches);
  EXPECT_EQ(bits_of(got.max_abs_err), bits_of(want.max_abs_err))
      << got.max_abs_err << " vs " << want.max_abs_err;
  EXPECT_EQ(bits_of(got.max_rel_err), bits_of(want.max_rel_err))
      << got.max_rel_err << " vs " << want.max_rel_err;
  EXPECT_EQ(bits_of(got.ref_scale), bits_of(want.ref_scale));
  EXPECT_EQ(got.constant_output, want.constant_output);
  EXPECT_EQ(got.first_bad, want.first_bad);
  EXPECT_EQ(bits_of(got.ref_at_first_bad), bits_of(want.ref_at_first_bad));
  EXPECT_EQ(bits_of(got.got_at_first_bad), bits_of(want.got_at_first_bad));
  EXPECT_EQ(got.summary, want.summary);
}

// Element encoders for the buffers under test.
struct F32 {
  static constexpr DType kType = DType::f32;
  static constexpr bool kFloating = true;
  using Bits = std::uint32_t;
  static Bits encode(double v) { return std::bit_cast<Bits>(static_cast<float>(v)); }
};
struct F64 {
  static constexpr DType kType = DType::f64;
  static constexpr bool kFloating = true;
  using Bits = std::uint64_t;
  static Bits encode(double v) { return std::bit_cast<Bits>(v); }
};
struct BF16 {
  static constexpr DType kType = DType::bf16;
  static constexpr bool kFloating = true;
  using Bits = std::uint16_t;
  static Bits encode(double v) { return bf16_bits_from_double(v); }
};
struct I32 {
  static constexpr DType kType = DType::i32;
  static constexpr bool kFloating = false;
  using Bits = std::uint32_t;
  static Bits encode(double v) { return std::bit_cast<Bits>(static_cast<std::int32_t>(v)); }
};

enum class Scenario {
  mixed,      // mismatches, poison, NaN/Inf, tied maximum errors spread over the whole buffer
  late_only,  // the only problems sit in the last few elements
  clean,      // everything within tolerance (ties of the maximum error only)
  constant,   // candidate constant while the reference varies
};

template <class T>
struct Buffers {
  std::vector<std::byte> reference;
  std::vector<std::byte> candidate;
  std::size_t first_tie = 0;  // lowest index among the elements with the largest error
};

template <class T>
Buffers<T> make_buffers(Scenario scenario) {
  using Bits = typename T::Bits;
  std::vector<Bits> ref(kCount);
  std::vector<Bits> got(kCount);
  std::vector<double> values(kCount);
  std::mt19937_64 random(12345);
  std::uniform_real_distribution<double> value(-4.0, 4.0);
  std::uniform_real_distribution<double> noise(-1e-6, 1e-6);
  std::uniform_int_distribution<int> integer(-1000, 1000);
  for (std::size_t i = 0; i < kCount; ++i) {
    if constexpr (T::kFloating) {
      double const v = value(random);
      values[i] = v;
      ref[i] = T::encode(v);
      got[i] = T::encode(v * (1.0 + noise(random)));
    } else {
      values[i] = integer(random);
      ref[i] = T::encode(values[i]);
      got[i] = ref[i];
    }
  }
  std::size_t const n = kCount;
  Buffers<T> buffers;
  // Largest error 8 (0.5 vs 8.5, or 1 vs 9), the same at several places in different chunks.
  auto const plant_tie = [&](std::size_t i) {
    ref[i] = T::encode(T::kFloating ? 0.5 : 1.0);
    got[i] = T::encode(T::kFloating ? 8.5 : 9.0);
  };
  Bits const poison = std::bit_cast<Bits>(static_cast<Bits>(~Bits{0}));  // every byte 0xFF (kPoisonA)
  switch (scenario) {
    case Scenario::mixed: {
      // Errors of 3 (6 for integers, beyond an allowance of 0.005 x 1000): outside tolerance, below the
      // largest.
      for (std::size_t i : {std::size_t{17}, n / 3 - 1, n / 3, n / 2, 2 * n / 3 + 1, n - 1})
        got[i] = T::encode(values[i] + (T::kFloating ? 3.0 : 6.0));
      for (std::size_t i : {n / 4 + 3, n / 2 + 1, 3 * n / 4, n - 2}) plant_tie(i);
      buffers.first_tie = n / 4 + 3;
      for (std::size_t i : {n / 5, n / 2 + 2, n - 5}) {
        ref[i] = T::encode(2.0);  // when poison is not checked: an error of 3 for integers, NaN for floats
        got[i] = poison;
      }
      ref[n / 8] = poison;  // the reference holds the poison bytes there: not unwritten
      got[n / 8] = poison;
      if constexpr (T::kFloating) {
        for (std::size_t i : {std::size_t{5}, n / 2 - 1, n - 9}) {
          ref[i] = T::encode(kNaN);
          got[i] = T::encode(kNaN);
        }
        for (std::size_t i : {n / 3 + 7, 5 * n / 6}) got[i] = T::encode(-kNaN);
        ref[n / 6] = T::encode(kNaN);
        ref[n / 7] = T::encode(kInf);
        got[n / 7] = T::encode(kInf);
        ref[4 * n / 7] = T::encode(kInf);
        got[4 * n / 7] = T::encode(-kInf);
      }
      break;
    }
    case Scenario::late_only:
      got[n - 3] = poison;
      got[n - 2] = T::encode(T::kFloating ? 100.0 : 100000.0);
      if constexpr (T::kFloating) got[n - 1] = T::encode(kNaN);
      break;
    case Scenario::clean:
      // Ties of the largest (tolerated) error in different chunks.
      for (std::size_t i : {n / 3 - 2, n / 3 + 2, 2 * n / 3, n - 1}) {
        ref[i] = T::encode(T::kFloating ? 0.5 : 1.0);
        got[i] = T::encode(T::kFloating ? 0.5 + 1.0 / 512.0 : 1.0);
      }
      buffers.first_tie = n / 3 - 2;
      break;
    case Scenario::constant:
      for (auto& bits : got) bits = T::encode(1.0);
      break;
  }
  buffers.reference.resize(kCount * sizeof(Bits));
  buffers.candidate.resize(kCount * sizeof(Bits));
  std::memcpy(buffers.reference.data(), ref.data(), buffers.reference.size());
  std::memcpy(buffers.candidate.data(), got.data(), buffers.candidate.size());
  return buffers;
}

template <class T>
void check_against_serial(Scenario scenario, ToleranceSpec const& tolerance) {
  auto const buffers = make_buffers<T>(scenario);
  for (std::optional<std::byte> poison : {std::optional<std::byte>{}, std::optional<std::byte>{kPoisonA}}) {
    std::string const label = std::string(to_string(T::kType)) + " scenario " +
                              std::to_string(static_cast<int>(scenario)) + (poison ? " with poison" : "");
    auto const want =
        detail::compare_outputs_serial(T::kType, buffers.reference, buffers.candidate, tolerance, poison);
    expect_same_result(compare_outputs(T::kType, buffers.reference, buffers.candidate, tolerance, poison),
                       want, label + ", default threads");
    for (std::size_t chunks : {1, 2, 7}) {
      expect_same_result(detail::compare_outputs_chunked(T::kType, buffers.reference, buffers.candidate,
                                                         tolerance, poison, chunks),
                         want, label + ", " + std::to_string(chunks) + " chunks");
    }
    // What the serial reference says, independently of the parallel code.
    if (scenario == Scenario::mixed) {
      EXPECT_EQ(want.passed, tolerance.mismatch_fraction > 0.0 && !poison) << want.summary;
      EXPECT_EQ(want.unwritten, poison ? 3u : 0u) << want.summary;
      EXPECT_NE(want.summary.find("max abs err 8.0e+00 at [" + std::to_string(buffers.first_tie) + "]"),
                std::string::npos)
          << want.summary;
      EXPECT_EQ(want.first_bad, std::optional<std::size_t>{17}) << want.summary;
    }
    if (scenario == Scenario::late_only) {
      EXPECT_EQ(want.first_bad, std::optional<std::size_t>{kCount - 3}) << want.summary;
    }
    if (scenario == Scenario::clean) {
      EXPECT_TRUE(want.passed) << want.summary;
    }
    if (scenario == Scenario::constant) {
      EXPECT_TRUE(want.constant_output) << want.summary;
    }
  }
}

template <class T>
void check_all_scenarios(ToleranceSpec const& tolerance) {
  for (Scenario scenario : {Scenario::mixed, Scenario::late_only, Scenario::clean, Scenario::constant}) {
    check_against_serial<T>(scenario, tolerance);
  }
}

TEST(CompareParallel, Float32MatchesSerial) {
  check_all_scenarios<F32>(ToleranceSpec{1e-3, 1e-3, 0.0});
}

TEST(CompareParallel, Float32WithinAllowedFractionMatchesSerial) {
  check_against_serial<F32>(Scenario::mixed, ToleranceSpec{1e-3, 1e-3, 1e-3});
}

TEST(CompareParallel, Bfloat16MatchesSerial) {
  check_all_scenarios<BF16>(ToleranceSpec{1e-2, 1e-2, 0.0});
}

TEST(CompareParallel, Float64MatchesSerial) {
  check_all_scenarios<F64>(ToleranceSpec{1e-3, 1e-6, 0.0});
}

TEST(CompareParallel, Int32ExactMatchesSerial) {
  check_all_scenarios<I32>(ToleranceSpec{0.0, 0.0, 0.0});
}

TEST(CompareParallel, Int32WithAbsoluteToleranceMatchesSerial) {
  check_against_serial<I32>(Scenario::mixed, ToleranceSpec{0.005, 0.0, 0.0});
}

TEST(CompareParallel, MoreChunksThanElementsMatchesSerial) {
  std::vector<float> const ref{1.0f, 2.0f, -3.0f, 4.0f, 0.5f};
  std::vector<float> const got{1.0f, 2.5f, -3.0f, 4.5f, 0.5f};  // tied errors at [1] and [3]
  std::vector<std::byte> r(ref.size() * sizeof(float));
  std::vector<std::byte> g(got.size() * sizeof(float));
  std::memcpy(r.data(), ref.data(), r.size());
  std::memcpy(g.data(), got.data(), g.size());
  ToleranceSpec const tolerance{0.0, 0.01, 0.0};
  auto const want = detail::compare_outputs_serial(DType::f32, r, g, tolerance);
  EXPECT_NE(want.summary.find("max abs err 5.0e-01 at [1]"), std::string::npos) << want.summary;
  for (std::size_t chunks : {1, 2, 3, 5, 16}) {
    expect_same_result(detail::compare_outputs_chunked(DType::f32, r, g, tolerance, std::nullopt, chunks),
                       want, std::to_string(chunks) + " chunks");
  }
}

// The typed decoders agree with element_as_double for every 16-bit pattern, bit for bit.
TEST(CompareParallel, SixteenBitDecodersMatchElementAsDouble) {
  detail::Bfloat16Codec const bfloat;
  detail::Float16Codec const half{detail::float16_table()};
  for (std::uint32_t value = 0; value <= 0xFFFFU; ++value) {
    auto const bits = static_cast<std::uint16_t>(value);
    std::byte raw[2];
    std::memcpy(raw, &bits, sizeof(bits));
    ASSERT_EQ(bits_of(bfloat.decode(bits)), bits_of(element_as_double(DType::bf16, raw, 0))) << value;
    ASSERT_EQ(bits_of(half.decode(bits)), bits_of(element_as_double(DType::f16, raw, 0))) << value;
  }
}

}  // namespace compare_parallel_test
}  // namespace kopt
