#include <gtest/gtest.h>

#include <algorithm>

#include "task_builder.hpp"

namespace kopt {
namespace errors_test {

using testing::buffer;
using testing::gen;
using testing::size;
using testing::task;

std::string error_of(TaskSpec const& spec, SizeCase const& size_case) {
  auto result = generate_inputs(spec, size_case, 1, 0, 1);
  EXPECT_FALSE(result.ok());
  return result.ok() ? std::string() : result.error().message;
}

void expect_contains(std::string const& text, std::string const& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "'" << part << "' not in: " << text;
}

TEST(GeneratorErrors, UnknownKindListsTheKnownOnes) {
  auto const spec = task({buffer("in", Role::input, DType::f32, "N", {gen("uniformm")})});
  auto const status = validate_generators(spec);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::invalid_spec);
  expect_contains(
      status.error().message,
      "/tasks/test/task.toml: buffers.in.generator: unknown kind 'uniformm'; expected one of uniform, "
      "normal, int_uniform");
  expect_contains(error_of(spec, size({{"N", 4}})), "unknown kind 'uniformm'");
}

TEST(GeneratorErrors, FieldNamesTheGeneratorIndex) {
  auto const spec = task({buffer("in", Role::input, DType::f32, "N", {gen("normal"), gen("nromal")})});
  expect_contains(validate_generators(spec).error().message,
                  "buffers.in.generators[1]: unknown kind 'nromal'");
}

TEST(GeneratorErrors, UnknownAndMissingParameters) {
  auto const typo = task({buffer("in", Role::input, DType::f32, "N", {gen("uniform", {{"loww", 0.0}})})});
  expect_contains(validate_generators(typo).error().message,
                  "unknown parameter 'loww' for kind 'uniform'; expected low, high");
  auto const missing =
      task({buffer("in", Role::input, DType::i32, "N", {gen("int_uniform", {{"low", 0.0}})})});
  expect_contains(validate_generators(missing).error().message,
                  "missing parameter 'high' for kind 'int_uniform'");
}

TEST(GeneratorErrors, ExpressionsUseKnownScalars) {
  auto const spec = task({buffer("in", Role::input, DType::i32, "N",
                                 {gen("int_uniform", {{"low", 0.0}, {"high", std::string("Q-1")}})})});
  expect_contains(validate_generators(spec).error().message,
                  "unknown scalar 'Q' in \"Q-1\"; expected one of N");
  auto const bad_syntax = task({buffer("in", Role::input, DType::i32, "N",
                                       {gen("int_uniform", {{"low", 0.0}, {"high", std::string("N-")}})})});
  expect_contains(validate_generators(bad_syntax).error().message, "buffers.in.generator.high:");
}

TEST(GeneratorErrors, StructuredKindOnABufferAndViceVersa) {
  auto const on_buffer = task({buffer("in", Role::input, DType::f32, "N", {gen("csr")})});
  expect_contains(validate_generators(on_buffer).error().message, "kind 'csr' fills several buffers");
  auto spec = task({buffer("in", Role::input, DType::f32, "N")});
  spec.structured_generators["S"] = gen("uniform", {}, {{"values", "in"}});
  expect_contains(validate_generators(spec).error().message,
                  "generators.S: kind 'uniform' fills a single buffer");
}

TEST(GeneratorErrors, MissingAndUnknownTargets) {
  auto spec = task({buffer("rp", Role::input, DType::i32, "N+1"), buffer("ci", Role::input, DType::i32, "N"),
                    buffer("v", Role::input, DType::f32, "N")});
  spec.structured_generators["A"] = gen("csr", {{"rows", 4.0}, {"cols", 4.0}, {"nnz", std::string("N")}},
                                        {{"row_ptr", "rp"}, {"col_idx", "ci"}});
  expect_contains(
      validate_generators(spec).error().message,
      "generators.A.targets: missing target 'values' for kind 'csr'; expected targets row_ptr, col_idx, "
      "values");
  spec.structured_generators["A"].targets["vals"] = "v";
  expect_contains(validate_generators(spec).error().message, "unknown target 'vals'");
  spec.structured_generators["A"].targets = {{"row_ptr", "rp"}, {"col_idx", "ci"}, {"values", "nope"}};
  expect_contains(validate_generators(spec).error().message, "'nope' is not a buffer");
}

TEST(GeneratorErrors, TargetLengthMismatchNamesBoth) {
  auto spec = task({buffer("rp", Role::input, DType::i32, "5"), buffer("ci", Role::input, DType::i32, "N"),
                    buffer("v", Role::input, DType::f32, "N")});
  spec.structured_generators["A"] = gen("csr", {{"rows", 4.0}, {"cols", 4.0}, {"nnz", 9.0}},
                                        {{"row_ptr", "rp"}, {"col_idx", "ci"}, {"values", "v"}});
  ASSERT_TRUE(validate_generators(spec).ok());
  auto const message = error_of(spec, size({{"N", 10}}));
  expect_contains(message,
                  "generators.A: target 'col_idx' is buffer 'ci' with 10 elements, but csr produces 9 "
                  "(nnz = 9)");
}

TEST(GeneratorErrors, NegativeLengthNamesTheBuffer) {
  auto const spec = task({buffer("x", Role::input, DType::f32, "N-10")});
  auto const lengths = buffer_lengths(spec, size({{"N", 5}}));
  ASSERT_FALSE(lengths.ok());
  expect_contains(lengths.error().message,
                  "buffers.x.length: 'N-10' is -5 for size case 'case'; expected a length >= 0");
  expect_contains(error_of(spec, size({{"N", 5}})), "buffers.x.length");
  auto const unbound = buffer_lengths(spec, size({}));
  ASSERT_FALSE(unbound.ok());
  expect_contains(unbound.error().message, "buffers.x.length");
}

TEST(GeneratorErrors, RangeMustFitTheDtype) {
  auto const spec = task(
      {buffer("x", Role::input, DType::u8, "N", {gen("int_uniform", {{"low", -100.0}, {"high", 100.0}})})});
  expect_contains(error_of(spec, size({{"N", 3}})),
                  "values [-100, 100] do not fit buffer 'x' of dtype u8 (0 to 255)");
  auto const mask = task(
      {buffer("m", Role::input, DType::boolean, "N", {gen("int_uniform", {{"low", 0.0}, {"high", 3.0}})})});
  expect_contains(error_of(mask, size({{"N", 3}})),
                  "values [0, 3] do not fit buffer 'm' of dtype bool (0 to 1)");
  auto const reversed =
      task({buffer("x", Role::input, DType::f32, "N", {gen("uniform", {{"low", 1.0}, {"high", -1.0}})})});
  expect_contains(error_of(reversed, size({{"N", 3}})), "is above high");
}

TEST(GeneratorErrors, ProbabilityRowsNeedFloatsAndWholeRows) {
  auto const ints =
      task({buffer("p", Role::input, DType::i32, "N", {gen("probability_rows", {{"cols", 4.0}})})});
  expect_contains(validate_generators(ints).error().message, "needs a floating-point buffer");
  auto const ragged =
      task({buffer("p", Role::input, DType::f32, "N", {gen("probability_rows", {{"cols", 4.0}})})});
  expect_contains(error_of(ragged, size({{"N", 10}})), "not a multiple of cols = 4");
}

TEST(GeneratorErrors, TooManyNonzeros) {
  auto spec = task({buffer("rp", Role::input, DType::i32, "3"), buffer("ci", Role::input, DType::i32, "N"),
                    buffer("v", Role::input, DType::f32, "N")});
  spec.structured_generators["A"] = gen("csr", {{"rows", 2.0}, {"cols", 2.0}, {"nnz", std::string("N")}},
                                        {{"row_ptr", "rp"}, {"col_idx", "ci"}, {"values", "v"}});
  expect_contains(error_of(spec, size({{"N", 5}})), "nnz 5 exceeds rows * cols = 4");
}

TEST(GeneratorErrors, EllPaddingNeedsSignedIndices) {
  auto spec = task({buffer("ci", Role::input, DType::u32, "N"), buffer("v", Role::input, DType::f32, "N")});
  spec.structured_generators["E"] =
      gen("ell", {{"rows", 2.0}, {"cols", 4.0}, {"width", 2.0}}, {{"col_idx", "ci"}, {"values", "v"}});
  expect_contains(error_of(spec, size({{"N", 4}})), "cannot hold values [-1, 3]");
}

TEST(GeneratorErrors, OutputsAndDoubleFilledBuffers) {
  auto const output = task({buffer("y", Role::output, DType::f32, "N", {gen("normal")})});
  expect_contains(validate_generators(output).error().message, "is an output");
  auto spec = task({buffer("rp", Role::input, DType::i32, "3", {gen("arange")}),
                    buffer("ci", Role::input, DType::i32, "N"), buffer("v", Role::input, DType::f32, "N")});
  spec.structured_generators["A"] = gen("csr", {{"rows", 2.0}, {"cols", 2.0}, {"nnz", 2.0}},
                                        {{"row_ptr", "rp"}, {"col_idx", "ci"}, {"values", "v"}});
  expect_contains(validate_generators(spec).error().message, "'rp' also has its own generator");
}

TEST(GeneratorErrors, KindsAreListed) {
  auto const kinds = generator_kinds();
  for (auto const* name : {"uniform", "normal", "int_uniform", "constant", "arange", "sorted_offsets",
                           "permutation", "probability_rows", "csr", "coo", "csc", "ell"}) {
    EXPECT_NE(std::find(kinds.begin(), kinds.end(), name), kinds.end()) << name;
  }
}

}  // namespace errors_test
}  // namespace kopt
