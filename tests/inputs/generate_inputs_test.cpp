#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "kopt/float16.hpp"
#include "task_builder.hpp"

namespace kopt {
namespace generate_inputs_test {

using testing::buffer;
using testing::gen;
using testing::generate_ok;
using testing::size;
using testing::task;
using testing::values_of;

struct Moments {
  double mean = 0.0;
  double std_dev = 0.0;
  double min = 0.0;
  double max = 0.0;
};

template <class T>
Moments moments(std::vector<T> const& values) {
  Moments m;
  m.min = static_cast<double>(*std::min_element(values.begin(), values.end()));
  m.max = static_cast<double>(*std::max_element(values.begin(), values.end()));
  double sum = 0.0;
  for (auto v : values) sum += static_cast<double>(v);
  m.mean = sum / static_cast<double>(values.size());
  double squares = 0.0;
  for (auto v : values) squares += (static_cast<double>(v) - m.mean) * (static_cast<double>(v) - m.mean);
  m.std_dev = std::sqrt(squares / static_cast<double>(values.size()));
  return m;
}

TEST(Mix64, IsTheSplitmix64Finaliser) {
  // The first output of splitmix64 seeded with 0.
  EXPECT_EQ(mix64(0x9E3779B97F4A7C15ULL), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(mix64(0), 0u);
  EXPECT_NE(mix64(1), mix64(2));
}

TEST(GenerateInputs, SameSeedSameBytesOtherTrialOtherBytes) {
  auto const spec =
      task({buffer("x", Role::input, DType::f32, "N"), buffer("y", Role::output, DType::f32, "N")});
  auto const n = size({{"N", 4096}});
  auto const a = generate_ok(spec, n, 11, 0);
  auto const b = generate_ok(spec, n, 11, 0);
  EXPECT_EQ(a.buffers[0].bytes, b.buffers[0].bytes);
  auto const other_trial = generate_ok(spec, n, 11, 3);  // same generator (3 % 3 == 0), new data
  EXPECT_NE(a.buffers[0].bytes, other_trial.buffers[0].bytes);
  auto const other_seed = generate_ok(spec, n, 12, 0);
  EXPECT_NE(a.buffers[0].bytes, other_seed.buffers[0].bytes);
  EXPECT_EQ(a.seed, 11u);
  EXPECT_EQ(other_trial.trial, 3);
}

TEST(GenerateInputs, BuffersOfOneTrialDiffer) {
  auto const spec =
      task({buffer("a", Role::input, DType::f32, "N"), buffer("b", Role::input, DType::f32, "N")});
  auto const inputs = generate_ok(spec, size({{"N", 1000}}));
  EXPECT_NE(inputs.buffers[0].bytes, inputs.buffers[1].bytes);
}

TEST(GenerateInputs, OutputsHaveCountAndNoBytes) {
  auto const spec =
      task({buffer("in", Role::input, DType::f16, "N*2"), buffer("io", Role::inout, DType::i64, "N"),
            buffer("out", Role::output, DType::bf16, "N+1")});
  auto const inputs = generate_ok(spec, size({{"N", 10}}));
  ASSERT_EQ(inputs.buffers.size(), 3u);
  EXPECT_EQ(inputs.buffers[0].name, "in");
  EXPECT_EQ(inputs.buffers[0].count, 20u);
  EXPECT_EQ(inputs.buffers[0].bytes.size(), 40u);
  EXPECT_EQ(inputs.buffers[1].role, Role::inout);
  EXPECT_EQ(inputs.buffers[1].bytes.size(), 80u);
  EXPECT_EQ(inputs.buffers[2].count, 11u);
  EXPECT_TRUE(inputs.buffers[2].bytes.empty());
  EXPECT_EQ(inputs.buffers[2].dtype, DType::bf16);
}

TEST(GenerateInputs, ScratchHasCountAndNoBytes) {
  auto const spec =
      task({buffer("in", Role::input, DType::f32, "N"), buffer("work", Role::scratch, DType::f32, "64"),
            buffer("out", Role::output, DType::f32, "1")});
  auto const inputs = generate_ok(spec, size({{"N", 10}}));
  ASSERT_EQ(inputs.buffers.size(), 3u);
  EXPECT_EQ(inputs.buffers[1].role, Role::scratch);
  EXPECT_EQ(inputs.buffers[1].count, 64u);
  EXPECT_TRUE(inputs.buffers[1].bytes.empty());
  EXPECT_EQ(inputs.buffers[0].bytes.size(), 40u);
}

// A buffer of float2 or cufftComplex (lanes 2) counts elements in its length and holds two floats each,
// every one generated.
TEST(GenerateInputs, VectorElementsHoldLanesScalarsEach) {
  BufferSpec complex = buffer("z", Role::input, DType::f32, "N");
  complex.lanes = 2;
  BufferSpec out = buffer("y", Role::output, DType::f32, "N");
  out.lanes = 4;
  auto const spec = task({complex, out});
  auto const inputs = generate_ok(spec, size({{"N", 10}}));
  EXPECT_EQ(inputs.buffers[0].count, 20u);
  EXPECT_EQ(inputs.buffers[0].bytes.size(), 80u);
  EXPECT_EQ(inputs.buffers[1].count, 40u);
  auto const values = values_of<float>(inputs, 0);
  EXPECT_EQ(std::set<float>(values.begin(), values.end()).size(), 20u);  // the imaginary parts too
  auto const lengths = buffer_lengths(spec, size({{"N", 3}}));
  ASSERT_TRUE(lengths) << lengths.error().message;
  EXPECT_EQ(*lengths, (std::vector<std::size_t>{6, 12}));
}

TEST(GenerateInputs, ParallelEqualsSerial) {
  auto const spec =
      task({buffer("u", Role::input, DType::f32, "N", {gen("uniform", {{"low", -3.0}, {"high", 5.0}})}),
            buffer("z", Role::input, DType::bf16, "N", {gen("normal")}),
            buffer("k", Role::input, DType::i32, "N", {gen("int_uniform", {{"low", -7.0}, {"high", 9.0}})}),
            buffer("p", Role::input, DType::f64, "N", {gen("probability_rows", {{"cols", 100.0}})}),
            buffer("row_ptr", Role::input, DType::i32, "1001"),
            buffer("col_idx", Role::input, DType::i32, "30000"),
            buffer("values", Role::input, DType::f32, "30000")});
  auto with_csr = spec;
  with_csr.structured_generators["A"] = gen(
      "csr", {{"rows", 1000.0}, {"cols", 800.0}, {"nnz", 30000.0}, {"row_lengths", std::string("power_law")}},
      {{"row_ptr", "row_ptr"}, {"col_idx", "col_idx"}, {"values", "values"}});
  auto const n = size({{"N", 300000}});
  auto const serial = generate_ok(with_csr, n, 5, 1, 1);
  auto const parallel = generate_ok(with_csr, n, 5, 1, 4);
  ASSERT_EQ(serial.buffers.size(), parallel.buffers.size());
  for (std::size_t i = 0; i < serial.buffers.size(); ++i) {
    EXPECT_EQ(serial.buffers[i].bytes, parallel.buffers[i].bytes) << serial.buffers[i].name;
  }
}

TEST(Distributions, UniformMomentsAndRange) {
  auto const spec =
      task({buffer("x", Role::input, DType::f64, "N", {gen("uniform", {{"low", -2.0}, {"high", 6.0}})})});
  auto const values = values_of<double>(generate_ok(spec, size({{"N", 100000}})), 0);
  auto const m = moments(values);
  EXPECT_NEAR(m.mean, 2.0, 0.05);
  EXPECT_NEAR(m.std_dev, 8.0 / std::sqrt(12.0), 0.03);
  EXPECT_GE(m.min, -2.0);
  EXPECT_LT(m.max, 6.0);
  EXPECT_LT(m.min, -1.99);
  EXPECT_GT(m.max, 5.99);
}

TEST(Distributions, NormalMoments) {
  auto const spec =
      task({buffer("x", Role::input, DType::f32, "N", {gen("normal", {{"mean", 2.0}, {"std", 3.0}})})});
  auto const values = values_of<float>(generate_ok(spec, size({{"N", 100000}})), 0);
  auto const m = moments(values);
  EXPECT_NEAR(m.mean, 2.0, 0.05);
  EXPECT_NEAR(m.std_dev, 3.0, 0.05);
  std::size_t within_one_sigma = 0;
  for (float v : values) within_one_sigma += std::fabs(v - 2.0f) < 3.0f ? 1 : 0;
  EXPECT_NEAR(static_cast<double>(within_one_sigma) / 1e5, 0.6827, 0.01);
}

TEST(Distributions, IntUniformIsInclusiveAndUsesExpressions) {
  auto const spec = task({buffer("idx", Role::input, DType::i32, "N",
                                 {gen("int_uniform", {{"low", 0.0}, {"high", std::string("C-1")}})})},
                         {"N", "C"});
  auto const values = values_of<std::int32_t>(generate_ok(spec, size({{"N", 100000}, {"C", 10}})), 0);
  std::set<std::int32_t> seen(values.begin(), values.end());
  EXPECT_EQ(seen.size(), 10u);
  EXPECT_EQ(*seen.begin(), 0);
  EXPECT_EQ(*seen.rbegin(), 9);
  EXPECT_NEAR(moments(values).mean, 4.5, 0.05);
}

TEST(Distributions, IntegerKindsIntoFloatBuffersAreCast) {
  auto const spec =
      task({buffer("x", Role::input, DType::f32, "N", {gen("int_uniform", {{"low", -3.0}, {"high", 3.0}})})});
  auto const values = values_of<float>(generate_ok(spec, size({{"N", 1000}})), 0);
  for (float v : values) {
    EXPECT_EQ(v, std::round(v));
    EXPECT_LE(std::fabs(v), 3.0f);
  }
}

TEST(Distributions, UniformOnIntegerBufferIsAnIntegerRange) {
  auto const spec =
      task({buffer("x", Role::input, DType::i8, "N", {gen("uniform", {{"low", -2.5}, {"high", 2.5}})})});
  auto const values = values_of<std::int8_t>(generate_ok(spec, size({{"N", 10000}})), 0);
  std::set<int> seen(values.begin(), values.end());
  EXPECT_EQ(seen, (std::set<int>{-2, -1, 0, 1, 2}));
}

TEST(Distributions, ConstantAndArange) {
  auto const spec = task({buffer("c", Role::input, DType::f16, "N", {gen("constant", {{"value", 0.1}})}),
                          buffer("a", Role::input, DType::i64, "N",
                                 {gen("arange", {{"start", 5.0}, {"step", std::string("N")}})}),
                          buffer("f", Role::input, DType::f32, "N", {gen("arange", {{"step", 0.5}})})});
  auto const inputs = generate_ok(spec, size({{"N", 4}}));
  for (auto bits : values_of<std::uint16_t>(inputs, 0)) EXPECT_EQ(bits, f16_bits_from_double(0.1));
  EXPECT_EQ(values_of<std::int64_t>(inputs, 1), (std::vector<std::int64_t>{5, 9, 13, 17}));
  EXPECT_EQ(values_of<float>(inputs, 2), (std::vector<float>{0.0f, 0.5f, 1.0f, 1.5f}));
}

TEST(Defaults, FloatTrialsCycleThroughThreeDistributions) {
  auto const spec = task({buffer("x", Role::input, DType::f32, "N")});
  auto const n = size({{"N", 100000}});
  auto const uniform = moments(values_of<float>(generate_ok(spec, n, 3, 0), 0));
  EXPECT_LT(uniform.min, -0.99);
  EXPECT_GE(uniform.min, -1.0);
  EXPECT_LT(uniform.max, 1.0);
  auto const normal = moments(values_of<float>(generate_ok(spec, n, 3, 1), 0));
  EXPECT_LT(normal.min, -3.0) << "normal draws go well past -1";
  EXPECT_NEAR(normal.std_dev, 1.0, 0.02);
  auto const positive = moments(values_of<float>(generate_ok(spec, n, 3, 2), 0));
  EXPECT_GE(positive.min, 0.0);
  EXPECT_NEAR(positive.mean, 0.5, 0.01);
}

TEST(Defaults, IntegerRanges) {
  auto const spec =
      task({buffer("s", Role::input, DType::i16, "N"), buffer("u", Role::inout, DType::u8, "N")});
  auto const inputs = generate_ok(spec, size({{"N", 50000}}));
  auto const s = moments(values_of<std::int16_t>(inputs, 0));
  EXPECT_EQ(s.min, -100.0);
  EXPECT_EQ(s.max, 100.0);
  auto const u = moments(values_of<std::uint8_t>(inputs, 1));
  EXPECT_EQ(u.min, 0.0);
  EXPECT_EQ(u.max, 200.0);
}

TEST(Defaults, BoolBuffersHoldOnlyZeroAndOne) {
  // A bool byte other than 0 or 1 is undefined in C++: the default draws both values and nothing else, and a
  // float generator's values are rounded to 0 or 1 (a range beyond them is refused: GeneratorErrors).
  auto const spec = task({buffer("mask", Role::input, DType::boolean, "N")});
  auto const n = size({{"N", 50000}});
  auto const mask = moments(values_of<std::uint8_t>(generate_ok(spec, n), 0));
  EXPECT_EQ(mask.min, 0.0);
  EXPECT_EQ(mask.max, 1.0);
  EXPECT_NEAR(mask.mean, 0.5, 0.02);
  auto const from_floats = task(
      {buffer("mask", Role::input, DType::boolean, "N", {gen("uniform", {{"low", 0.0}, {"high", 1.0}})})});
  auto const saturated = moments(values_of<std::uint8_t>(generate_ok(from_floats, n), 0));
  EXPECT_EQ(saturated.min, 0.0);
  EXPECT_EQ(saturated.max, 1.0);
}

TEST(HalfPrecision, OutputIsTheGeneratedValueRoundedToNearest) {
  // The same stream written as f64 and as bf16 / f16: the 16-bit values are the doubles rounded.
  auto const generator = gen("normal", {{"mean", 0.0}, {"std", 100.0}});
  auto const n = size({{"N", 20000}});
  auto const wide =
      values_of<double>(generate_ok(task({buffer("x", Role::input, DType::f64, "N", {generator})}), n), 0);
  auto const bf16 = values_of<std::uint16_t>(
      generate_ok(task({buffer("x", Role::input, DType::bf16, "N", {generator})}), n), 0);
  auto const f16 = values_of<std::uint16_t>(
      generate_ok(task({buffer("x", Role::input, DType::f16, "N", {generator})}), n), 0);
  ASSERT_EQ(wide.size(), bf16.size());
  for (std::size_t i = 0; i < wide.size(); ++i) {
    double const v = wide[i];
    double const b = bf16_bits_to_float(bf16[i]);
    double const h = f16_bits_to_float(f16[i]);
    EXPECT_LE(std::fabs(b - v), std::fabs(v) * std::ldexp(1.0, -8)) << i;                          // half ulp
    EXPECT_LE(std::fabs(h - v), std::fabs(v) * std::ldexp(1.0, -11) + std::ldexp(1.0, -25)) << i;  // half ulp
  }
}

}  // namespace generate_inputs_test
}  // namespace kopt
