// Vendor baseline of row_argmin-f32 and row_argmin-bf16: cub::DeviceSegmentedReduce::ArgMin (CUB keeps the
// smaller index on ties) over the rows as segments, as row_argmax's baseline (row_argmax-cub.cuh: the
// offsets from a counting iterator, the (index, value) pairs in the grow-only scratch, then a small kernel
// that keeps the indices).
#pragma once
#include "row_argmax-cub.cuh"
#include "row_argmin-common.cuh"

template <typename T>
void row_argmin_baseline_cub(int* out, const T* in, int rows, int cols) {
  row_arg_baseline_cub<true>(out, in, rows, cols);
}
