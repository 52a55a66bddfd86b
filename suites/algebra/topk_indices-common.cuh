// Shared by topk_indices-f32 and topk_indices-bf16 (torch.topk(x, k, dim=-1) with int32 indices, sorted):
// for each row r of a row-major rows x cols matrix, values[r][0..k) are the k largest values of in[r][*]
// and indices[r][0..k) their columns, ordered by descending value, then ascending column (BF16 rows tie
// often: the order of equal values is part of the result). NaN counts as larger than every value (as
// torch); -0 equals +0 (IEEE comparison). Requires 1 <= k <= cols.
//
// Reference: one thread per row, selection by k scans of the row: scan r takes the first element, in that
// order, that comes after the one scan r - 1 took. Comparisons only, so the result is exact and
// deterministic. Naive on purpose (k passes over the row, uncoalesced: neighbouring threads read different
// rows) but obviously correct.
//
// The vendor baseline (CUB) is in topk_indices-cub.cuh.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

// Whether value a at column ca comes before value b at column cb: the larger value first (NaN above every
// value), then the smaller column.
__device__ inline bool topk_indices_before(float a, int ca, float b, int cb) {
  bool const a_nan = a != a;
  bool const b_nan = b != b;
  if (a_nan != b_nan) return a_nan;
  if (!a_nan && a != b) return a > b;
  return ca < cb;
}

template <typename T>
__global__ void topk_indices_reference_kernel(T* values, int* indices, const T* in, int rows, int cols,
                                              int k) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const T* x = in + static_cast<long long>(row) * cols;
  T* y = values + static_cast<long long>(row) * k;
  int* yi = indices + static_cast<long long>(row) * k;
  float previous = 0.0f;
  int previous_column = -1;  // none yet: every element comes after it
  for (int r = 0; r < k; ++r) {
    int best_column = -1;
    float best = 0.0f;
    for (int c = 0; c < cols; ++c) {
      float const v = static_cast<float>(x[c]);
      bool const after_previous = previous_column < 0 || topk_indices_before(previous, previous_column, v, c);
      if (after_previous && (best_column < 0 || topk_indices_before(v, c, best, best_column))) {
        best = v;
        best_column = c;
      }
    }
    y[r] = x[best_column];
    yi[r] = best_column;
    previous = best;
    previous_column = best_column;
  }
}

template <typename T>
void topk_indices_reference(T* values, int* indices, const T* in, int rows, int cols, int k) {
  if (rows <= 0 || cols <= 0 || k <= 0 || k > cols) return;
  int const block = 32;  // one warp per block: spreads the few rows over many SMs
  topk_indices_reference_kernel<T><<<(rows + block - 1) / block, block>>>(values, indices, in, rows, cols, k);
}
