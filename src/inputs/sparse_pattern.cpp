#include "inputs/sparse_pattern.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_set>

#include "inputs/parallel_for.hpp"

namespace kopt {

std::vector<std::int64_t> make_row_lengths(std::int64_t rows, std::int64_t cols, std::int64_t nnz,
                                           RowLengths shape, double alpha, RandomStream const& stream) {
  auto const n = static_cast<std::size_t>(std::max<std::int64_t>(rows, 0));
  std::vector<std::int64_t> lengths(n, 0);
  if (n == 0 || nnz <= 0 || cols <= 0) return lengths;
  std::vector<double> weights(n);
  for (std::size_t r = 0; r < n; ++r) {
    weights[r] = shape == RowLengths::power_law ? std::pow(stream.uniform_open(r), -1.0 / alpha)
                                                : 0.5 + stream.uniform(r);
  }
  // Hand out the nonzeros in proportion to the weights, capping rows at `cols` and redistributing
  // what the capped rows could not take.
  std::int64_t remaining = nnz;
  for (int round = 0; round < 64 && remaining > 0; ++round) {
    double open_weight = 0.0;
    for (std::size_t r = 0; r < n; ++r) {
      if (lengths[r] < cols) open_weight += weights[r];
    }
    if (!(open_weight > 0.0)) break;
    std::int64_t handed = 0;
    double const share = static_cast<double>(remaining) / open_weight;
    for (std::size_t r = 0; r < n && handed < remaining; ++r) {
      if (lengths[r] >= cols) continue;
      auto add = static_cast<std::int64_t>(std::floor(share * weights[r]));
      add = std::min({add, cols - lengths[r], remaining - handed});
      lengths[r] += add;
      handed += add;
    }
    remaining -= handed;
    if (handed == 0) break;
  }
  if (remaining > 0) {
    // The rounding remainder: one at a time, heaviest rows first (ties by index, so deterministic).
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return weights[a] > weights[b]; });
    while (remaining > 0) {
      for (std::size_t r : order) {
        if (remaining == 0) break;
        if (lengths[r] < cols) {
          ++lengths[r];
          --remaining;
        }
      }
    }
  }
  return lengths;
}

void choose_sorted_columns(std::int64_t cols, std::int64_t count, RandomStream const& stream,
                           std::int64_t* out) {
  if (count <= 0) return;
  // Floyd's algorithm: exactly `count` draws, each column equally likely to be chosen.
  if (2 * count > cols) {
    std::vector<char> chosen(static_cast<std::size_t>(cols), 0);
    for (std::int64_t j = cols - count; j < cols; ++j) {
      auto t = static_cast<std::size_t>(
          stream.below(static_cast<std::uint64_t>(j), static_cast<std::uint64_t>(j) + 1));
      if (chosen[t] != 0) t = static_cast<std::size_t>(j);
      chosen[t] = 1;
    }
    std::size_t k = 0;
    for (std::size_t c = 0; c < chosen.size(); ++c) {
      if (chosen[c] != 0) out[k++] = static_cast<std::int64_t>(c);
    }
    return;
  }
  std::unordered_set<std::int64_t> chosen;
  chosen.reserve(static_cast<std::size_t>(count) * 2);
  std::size_t k = 0;
  for (std::int64_t j = cols - count; j < cols; ++j) {
    auto t = static_cast<std::int64_t>(
        stream.below(static_cast<std::uint64_t>(j), static_cast<std::uint64_t>(j) + 1));
    if (!chosen.insert(t).second) {
      chosen.insert(j);
      t = j;
    }
    out[k++] = t;
  }
  std::sort(out, out + count);
}

SparsePattern make_pattern(std::int64_t rows, std::int64_t cols, std::int64_t nnz, RowLengths shape,
                           double alpha, RandomStream const& stream, unsigned threads) {
  SparsePattern pattern;
  auto const lengths = make_row_lengths(rows, cols, nnz, shape, alpha, stream.child(0));
  pattern.row_ptr.assign(lengths.size() + 1, 0);
  std::partial_sum(lengths.begin(), lengths.end(), pattern.row_ptr.begin() + 1);
  pattern.col_idx.assign(static_cast<std::size_t>(pattern.row_ptr.back()), 0);
  RandomStream const columns = stream.child(1);
  parallel_for(
      lengths.size(), threads,
      [&](std::size_t begin, std::size_t end) {
        for (std::size_t r = begin; r < end; ++r) {
          choose_sorted_columns(cols, lengths[r], columns.child(r),
                                pattern.col_idx.data() + pattern.row_ptr[r]);
        }
      },
      256);
  return pattern;
}

}  // namespace kopt
