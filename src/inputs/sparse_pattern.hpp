// Random sparsity patterns: how many nonzeros each row gets, and which distinct columns they are in.
#pragma once

#include <cstdint>
#include <vector>

#include "inputs/counter_random.hpp"

namespace kopt {

enum class RowLengths { uniform, power_law };

// Row lengths summing exactly to `nnz`, each in [0, cols] (requires nnz <= rows * cols).
// uniform: lengths within about +-50% of the mean; power_law: Pareto(alpha) weights, a few long rows.
std::vector<std::int64_t> make_row_lengths(std::int64_t rows, std::int64_t cols, std::int64_t nnz,
                                           RowLengths shape, double alpha, RandomStream const& stream);

// `count` distinct columns of [0, cols) in increasing order, written to out[0..count).
void choose_sorted_columns(std::int64_t cols, std::int64_t count, RandomStream const& stream,
                           std::int64_t* out);

// A CSR pattern: row_ptr (rows + 1 entries) and col_idx (nnz entries, sorted and distinct per row).
struct SparsePattern {
  std::vector<std::int64_t> row_ptr;
  std::vector<std::int64_t> col_idx;
};

SparsePattern make_pattern(std::int64_t rows, std::int64_t cols, std::int64_t nnz, RowLengths shape,
                           double alpha, RandomStream const& stream, unsigned threads);

}  // namespace kopt
