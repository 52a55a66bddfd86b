// Vendor baselines of the variants of row_cumsum (row_cumsum_reverse-*, row_cumprod-*, row_cumsum_masked-*,
// row_cumsum_exclusive-*; see row_scan_variants-common.cuh), as row_cumsum's (row_cumsum-cub.cuh):
// cub::DeviceScan::InclusiveScanByKey over the whole matrix, key = the row of each element, FP32 running
// values (BF16 widened to float, each output rounded once). The reverse scan reads the keys, the values and
// the output through reverse iterators, so CUB's forward scan walks each row from its end and yields the
// suffix sums; the product scans with cuda::std::multiplies; the masked scan's values are a transform of a
// counting iterator that reads x and its mask byte (x * 0 or x * 1); the exclusive scan's values are x
// shifted by one within each row (0 in the first column), so CUB's inclusive scan by key yields the
// exclusive sums.
#pragma once
#include <thrust/iterator/reverse_iterator.h>

#include <cstdint>

#include "row_cumsum-cub.cuh"
#include "row_scan_variants-common.cuh"

template <typename T>
void row_cumsum_reverse_baseline_cub(T* out, const T* in, int rows, int cols) {
  with_row_scan_offsets(rows, cols, [&](auto n, auto c) {
    inclusive_scan_by_key_cub(thrust::make_reverse_iterator(row_keys(c) + n),
                              thrust::make_reverse_iterator(row_cumsum_values(in) + n),
                              thrust::make_reverse_iterator(out + n), cuda::std::plus<float>{}, n);
  });
}

template <typename T>
void row_cumprod_baseline_cub(T* out, const T* in, int rows, int cols) {
  with_row_scan_offsets(rows, cols, [&](auto n, auto c) {
    inclusive_scan_by_key_cub(row_keys(c), row_cumsum_values(in), out, cuda::std::multiplies<float>{}, n);
  });
}

// Flat element i of x times its mask byte (1 where nonzero, else 0), as a float.
template <typename T, typename Index>
struct MaskedValue {
  const T* in;
  const std::uint8_t* mask;
  __host__ __device__ float operator()(Index i) const {
    return static_cast<float>(in[i]) * (mask[i] != 0 ? 1.0f : 0.0f);
  }
};

template <typename T>
void row_cumsum_masked_baseline_cub(T* out, const T* in, const std::uint8_t* mask, int rows, int cols) {
  with_row_scan_offsets(rows, cols, [&](auto n, auto c) {
    using Index = decltype(n);
    auto const values =
        thrust::make_transform_iterator(thrust::counting_iterator<Index>(0), MaskedValue<T, Index>{in, mask});
    inclusive_scan_by_key_cub(row_keys(c), values, out, cuda::std::plus<float>{}, n);
  });
}

// Flat element i's predecessor in its row, as a float (0 in a row's first column).
template <typename T, typename Index>
struct ShiftedValue {
  const T* in;
  Index cols;
  __host__ __device__ float operator()(Index i) const {
    return i % cols == 0 ? 0.0f : static_cast<float>(in[i - 1]);
  }
};

template <typename T>
void row_cumsum_exclusive_baseline_cub(T* out, const T* in, int rows, int cols) {
  with_row_scan_offsets(rows, cols, [&](auto n, auto c) {
    using Index = decltype(n);
    auto const values =
        thrust::make_transform_iterator(thrust::counting_iterator<Index>(0), ShiftedValue<T, Index>{in, c});
    inclusive_scan_by_key_cub(row_keys(c), values, out, cuda::std::plus<float>{}, n);
  });
}
