#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "task_builder.hpp"

namespace kopt {
namespace structured_test {

using testing::buffer;
using testing::gen;
using testing::generate_ok;
using testing::size;
using testing::task;
using testing::values_of;

TEST(SequenceGenerators, SortedOffsetsStartAtZeroAndEndAtTotal) {
  auto const spec = task({buffer("offsets", Role::input, DType::i32, "N+1",
                                 {gen("sorted_offsets", {{"total", std::string("T")}})})},
                         {"N", "T"});
  auto const offsets = values_of<std::int32_t>(generate_ok(spec, size({{"N", 1000}, {"T", 50000}})), 0);
  ASSERT_EQ(offsets.size(), 1001u);
  EXPECT_EQ(offsets.front(), 0);
  EXPECT_EQ(offsets.back(), 50000);
  EXPECT_TRUE(std::is_sorted(offsets.begin(), offsets.end()));
  std::size_t distinct = 0;
  for (std::size_t i = 1; i < offsets.size(); ++i) distinct += offsets[i] != offsets[i - 1] ? 1 : 0;
  EXPECT_GT(distinct, 900u) << "increments are random, not all at one place";
}

TEST(SequenceGenerators, PermutationIsAPermutation) {
  auto const spec = task({buffer("perm", Role::input, DType::i64, "N", {gen("permutation")})});
  auto values = values_of<std::int64_t>(generate_ok(spec, size({{"N", 5000}})), 0);
  auto const original = values;
  std::sort(values.begin(), values.end());
  for (std::size_t i = 0; i < values.size(); ++i) ASSERT_EQ(values[i], static_cast<std::int64_t>(i));
  std::size_t fixed_points = 0;
  for (std::size_t i = 0; i < original.size(); ++i)
    fixed_points += original[i] == static_cast<std::int64_t>(i);
  EXPECT_LT(fixed_points, 10u) << "shuffled, not the identity";
}

// permutation with `high`: n distinct values of [0, high] (distinct row indices for a scatter), the same
// bytes for the same seed, and high = n-1 the plain permutation. A range far wider than the buffer is
// shuffled in a hash map of the displaced slots, a narrower one in an array: both are checked.
TEST(SequenceGenerators, PermutationWithHighDrawsDistinctValuesInRange) {
  for (std::int64_t const high : {std::int64_t{11999}, std::int64_t{99999999}}) {
    auto const spec = task(
        {buffer("idx", Role::input, DType::i32, "N", {gen("permutation", {{"high", std::string("R-1")}})})},
        {"N", "R"});
    auto const at = size({{"N", 5000}, {"R", high + 1}});
    auto const values = values_of<std::int32_t>(generate_ok(spec, at), 0);
    ASSERT_EQ(values.size(), 5000u);
    std::vector<std::int32_t> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "distinct, high " << high;
    EXPECT_GE(sorted.front(), 0);
    EXPECT_LE(sorted.back(), high);
    EXPECT_GT(sorted.back(), high / 2) << "spread over the range, not 0..n-1";
    EXPECT_EQ(values_of<std::int32_t>(generate_ok(spec, at), 0), values) << "deterministic";
    EXPECT_NE(values_of<std::int32_t>(generate_ok(spec, at, 8), 0), values) << "another seed";
  }
  auto const plain =
      task({buffer("p", Role::input, DType::i64, "N", {gen("permutation")}),
            buffer("q", Role::input, DType::i64, "N", {gen("permutation", {{"high", std::string("N-1")}})})});
  auto const inputs = generate_ok(plain, size({{"N", 3000}}));
  auto p = values_of<std::int64_t>(inputs, 0);
  std::sort(p.begin(), p.end());
  for (std::size_t i = 0; i < p.size(); ++i) ASSERT_EQ(p[i], static_cast<std::int64_t>(i));
  auto q = values_of<std::int64_t>(inputs, 1);
  std::sort(q.begin(), q.end());
  EXPECT_EQ(p, q) << "high = n-1 is a permutation of 0..n-1";
}

TEST(SequenceGenerators, PermutationWithTooSmallOrTooLargeAHighIsAnError) {
  auto const spec = task(
      {buffer("idx", Role::input, DType::i32, "N", {gen("permutation", {{"high", std::string("R-1")}})})},
      {"N", "R"});
  auto few = generate_inputs(spec, size({{"N", 100}, {"R", 99}}), 1, 0, 1);
  ASSERT_FALSE(few.ok());
  EXPECT_NE(few.error().message.find("/tasks/test/task.toml: buffers.idx.generator: parameter 'high' is 98: "
                                     "buffer 'idx' has 100 elements, more than the 99 distinct values of "
                                     "[0, high]; expected high >= 99"),
            std::string::npos)
      << few.error().message;
  // Beyond 2^28 values, and more than 2^22 elements: no array of the range is allocated.
  auto const wide =
      task({buffer("idx", Role::input, DType::i64, "N", {gen("permutation", {{"high", 1099511627775.0}})})});
  auto many = generate_inputs(wide, size({{"N", 5000000}}), 1, 0, 1);
  ASSERT_FALSE(many.ok());
  EXPECT_NE(many.error().message.find("buffers.idx.generator: parameter 'high' is 1099511627775: drawing the "
                                      "5000000 distinct values of buffer 'idx'"),
            std::string::npos)
      << many.error().message;
}

TEST(SequenceGenerators, ProbabilityRowsArePositiveAndSumToOne) {
  auto const spec = task(
      {buffer("p", Role::input, DType::f32, "R*C", {gen("probability_rows", {{"cols", std::string("C")}})}),
       buffer("q", Role::input, DType::f64, "R*C", {gen("probability_rows", {{"cols", std::string("C")}})})},
      {"R", "C"});
  auto const inputs = generate_ok(spec, size({{"R", 200}, {"C", 37}}));
  auto const p = values_of<float>(inputs, 0);
  auto const q = values_of<double>(inputs, 1);
  for (std::size_t r = 0; r < 200; ++r) {
    double sum_p = 0.0;
    double sum_q = 0.0;
    for (std::size_t c = 0; c < 37; ++c) {
      ASSERT_GT(p[r * 37 + c], 0.0f);
      sum_p += static_cast<double>(p[r * 37 + c]);
      sum_q += q[r * 37 + c];
    }
    EXPECT_NEAR(sum_p, 1.0, 1e-5);
    EXPECT_NEAR(sum_q, 1.0, 1e-12);
  }
}

struct Csr {
  std::vector<std::int32_t> row_ptr;
  std::vector<std::int32_t> col_idx;
  std::vector<float> values;
};

TaskSpec csr_task(std::int64_t rows, std::int64_t cols, std::int64_t nnz, std::string const& shape) {
  auto spec = task({buffer("row_ptr", Role::input, DType::i32, std::to_string(rows + 1)),
                    buffer("col_idx", Role::input, DType::i32, std::to_string(nnz)),
                    buffer("values", Role::input, DType::f32, std::to_string(nnz)),
                    buffer("y", Role::output, DType::f32, std::to_string(rows))});
  spec.structured_generators["A"] =
      gen("csr",
          {{"rows", static_cast<double>(rows)},
           {"cols", static_cast<double>(cols)},
           {"nnz", static_cast<double>(nnz)},
           {"row_lengths", shape},
           {"value_low", 2.0},
           {"value_high", 3.0}},
          {{"row_ptr", "row_ptr"}, {"col_idx", "col_idx"}, {"values", "values"}});
  return spec;
}

Csr generate_csr(TaskSpec const& spec) {
  auto const inputs = generate_ok(spec, size({{"N", 1}}));
  return Csr{values_of<std::int32_t>(inputs, 0), values_of<std::int32_t>(inputs, 1),
             values_of<float>(inputs, 2)};
}

void expect_valid_csr(Csr const& m, std::int64_t rows, std::int64_t cols, std::int64_t nnz) {
  ASSERT_EQ(m.row_ptr.size(), static_cast<std::size_t>(rows + 1));
  EXPECT_EQ(m.row_ptr.front(), 0);
  EXPECT_EQ(m.row_ptr.back(), nnz);
  EXPECT_TRUE(std::is_sorted(m.row_ptr.begin(), m.row_ptr.end()));
  for (std::int64_t r = 0; r < rows; ++r) {
    auto const begin = static_cast<std::size_t>(m.row_ptr[static_cast<std::size_t>(r)]);
    auto const end = static_cast<std::size_t>(m.row_ptr[static_cast<std::size_t>(r) + 1]);
    EXPECT_LE(end - begin, static_cast<std::size_t>(cols));
    for (std::size_t k = begin; k < end; ++k) {
      ASSERT_GE(m.col_idx[k], 0);
      ASSERT_LT(m.col_idx[k], cols);
      if (k > begin) {
        ASSERT_LT(m.col_idx[k - 1], m.col_idx[k]) << "row " << r << " sorted and distinct";
      }
    }
  }
  for (float v : m.values) {
    ASSERT_GE(v, 2.0f);
    ASSERT_LE(v, 3.0f);
  }
}

std::vector<std::int64_t> row_lengths(Csr const& m) {
  std::vector<std::int64_t> lengths;
  for (std::size_t r = 0; r + 1 < m.row_ptr.size(); ++r) lengths.push_back(m.row_ptr[r + 1] - m.row_ptr[r]);
  return lengths;
}

// A launcher that takes the rows only: the columns and the nonzero count are the size case's variables, and
// the lengths and the generator read them like scalars.
TEST(Csr, SizesFromPerSizeVariables) {
  auto spec =
      task({buffer("row_ptr", Role::input, DType::i32, "rows + 1"),
            buffer("col_idx", Role::input, DType::i32, "nnz"),
            buffer("values", Role::input, DType::f32, "nnz"), buffer("y", Role::output, DType::f32, "rows")},
           {"rows"});
  spec.structured_generators["A"] =
      gen("csr", {{"rows", std::string("rows")}, {"cols", std::string("cols")}, {"nnz", std::string("nnz")}},
          {{"row_ptr", "row_ptr"}, {"col_idx", "col_idx"}, {"values", "values"}});
  SizeCase sized = size({{"rows", 300}});
  sized.variables = {{"cols", 40}, {"nnz", 5000}};
  spec.sizes = {sized};
  EXPECT_TRUE(validate_generators(spec).ok());
  auto const inputs = generate_ok(spec, sized);
  Csr const m{values_of<std::int32_t>(inputs, 0), values_of<std::int32_t>(inputs, 1),
              values_of<float>(inputs, 2)};
  ASSERT_EQ(m.col_idx.size(), 5000u);
  ASSERT_EQ(m.row_ptr.size(), 301u);
  EXPECT_EQ(m.row_ptr.back(), 5000);
  EXPECT_LT(*std::max_element(m.col_idx.begin(), m.col_idx.end()), 40);
}

TEST(Csr, UniformRowLengths) {
  auto const m = generate_csr(csr_task(2000, 3000, 40000, "uniform"));
  expect_valid_csr(m, 2000, 3000, 40000);
  auto const lengths = row_lengths(m);
  auto const [lo, hi] = std::minmax_element(lengths.begin(), lengths.end());
  EXPECT_GE(*lo, 8);  // mean 20, within about +-50%
  EXPECT_LE(*hi, 32);
}

TEST(Csr, PowerLawRowsAreSkewed) {
  auto const m = generate_csr(csr_task(2000, 5000, 20000, "power_law"));
  expect_valid_csr(m, 2000, 5000, 20000);
  auto const lengths = row_lengths(m);
  auto const longest = *std::max_element(lengths.begin(), lengths.end());
  EXPECT_GE(longest, 10 * 10) << "a few rows far longer than the mean of 10";
  std::vector<std::int64_t> sorted = lengths;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_LT(sorted[sorted.size() / 2], 10) << "the median row is shorter than the mean";
}

TEST(Csr, PowerLawRowsAreCappedAtCols) {
  auto const m = generate_csr(csr_task(500, 30, 7000, "power_law"));
  expect_valid_csr(m, 500, 30, 7000);
  auto const lengths = row_lengths(m);
  EXPECT_EQ(*std::max_element(lengths.begin(), lengths.end()), 30);
}

TEST(Csr, FullAndEmptyMatrices) {
  expect_valid_csr(generate_csr(csr_task(40, 50, 2000, "uniform")), 40, 50, 2000);
  expect_valid_csr(generate_csr(csr_task(40, 50, 2000, "power_law")), 40, 50, 2000);
  expect_valid_csr(generate_csr(csr_task(40, 50, 0, "uniform")), 40, 50, 0);
  expect_valid_csr(generate_csr(csr_task(40, 50, 1999, "uniform")), 40, 50, 1999);
}

TEST(Coo, SortedByRowThenColumnAndDistinct) {
  auto spec =
      task({buffer("ri", Role::input, DType::i64, "NNZ"), buffer("ci", Role::input, DType::i32, "NNZ"),
            buffer("v", Role::input, DType::f64, "NNZ")},
           {"NNZ"});
  spec.structured_generators["B"] =
      gen("coo", {{"rows", 300.0}, {"cols", 200.0}, {"nnz", std::string("NNZ")}},
          {{"row_idx", "ri"}, {"col_idx", "ci"}, {"values", "v"}});
  auto const inputs = generate_ok(spec, size({{"NNZ", 6000}}));
  auto const rows = values_of<std::int64_t>(inputs, 0);
  auto const cols = values_of<std::int32_t>(inputs, 1);
  ASSERT_EQ(rows.size(), 6000u);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    ASSERT_GE(rows[k], 0);
    ASSERT_LT(rows[k], 300);
    ASSERT_GE(cols[k], 0);
    ASSERT_LT(cols[k], 200);
    if (k > 0) {
      ASSERT_TRUE(rows[k - 1] < rows[k] || (rows[k - 1] == rows[k] && cols[k - 1] < cols[k])) << k;
    }
  }
  for (double v : values_of<double>(inputs, 2)) {
    ASSERT_GE(v, -1.0);
    ASSERT_LT(v, 1.0);
  }
}

TEST(Csc, ColumnPointersAndSortedRows) {
  auto spec =
      task({buffer("cp", Role::input, DType::i32, "C+1"), buffer("ri", Role::input, DType::i32, "NNZ"),
            buffer("v", Role::input, DType::f32, "NNZ")},
           {"R", "C", "NNZ"});
  spec.structured_generators["M"] =
      gen("csc", {{"rows", std::string("R")}, {"cols", std::string("C")}, {"nnz", std::string("NNZ")}},
          {{"col_ptr", "cp"}, {"row_idx", "ri"}, {"values", "v"}});
  auto const inputs = generate_ok(spec, size({{"R", 100}, {"C", 70}, {"NNZ", 1500}}));
  auto const col_ptr = values_of<std::int32_t>(inputs, 0);
  auto const row_idx = values_of<std::int32_t>(inputs, 1);
  ASSERT_EQ(col_ptr.size(), 71u);
  EXPECT_EQ(col_ptr.front(), 0);
  EXPECT_EQ(col_ptr.back(), 1500);
  for (std::size_t c = 0; c < 70; ++c) {
    for (auto k = col_ptr[c]; k < col_ptr[c + 1]; ++k) {
      auto const i = static_cast<std::size_t>(k);
      ASSERT_LT(row_idx[i], 100);
      if (k > col_ptr[c]) {
        ASSERT_LT(row_idx[i - 1], row_idx[i]);
      }
    }
  }
}

TEST(Ell, PaddingIsMinusOneWithZeroValues) {
  auto spec =
      task({buffer("ci", Role::input, DType::i32, "R*W"), buffer("v", Role::input, DType::f32, "R*W")},
           {"R", "W"});
  spec.structured_generators["E"] =
      gen("ell", {{"rows", std::string("R")}, {"cols", 40.0}, {"width", std::string("W")}},
          {{"col_idx", "ci"}, {"values", "v"}});
  auto const inputs = generate_ok(spec, size({{"R", 500}, {"W", 8}}));
  auto const cols = values_of<std::int32_t>(inputs, 0);
  auto const values = values_of<float>(inputs, 1);
  std::size_t padded = 0;
  for (std::size_t r = 0; r < 500; ++r) {
    bool in_padding = false;
    for (std::size_t j = 0; j < 8; ++j) {
      auto const c = cols[r * 8 + j];
      if (c == -1) {
        in_padding = true;
        ++padded;
        EXPECT_EQ(values[r * 8 + j], 0.0f);
        continue;
      }
      ASSERT_FALSE(in_padding) << "padding only at the end of a row";
      ASSERT_GE(c, 0);
      ASSERT_LT(c, 40);
      if (j > 0) {
        ASSERT_LT(cols[r * 8 + j - 1], c);
      }
    }
  }
  EXPECT_GT(padded, 0u);
  EXPECT_LT(padded, 500u * 8u);
}

}  // namespace structured_test
}  // namespace kopt
