// Shared by topk-f32 and topk-bf16: for each row r of a row-major rows x cols matrix, out[r][0..k-1] are
// the k largest values of in[r][*] in descending order (values only; a value that occurs several times
// fills as many places as it has copies among the k largest). Requires 1 <= k <= cols; no NaN inputs.
// One thread per row (each output depends on the whole row), selection by k scans of the row: scan r
// either repeats the previous value, while the row holds more copies of it than were written, or takes
// the largest value strictly below it. Comparisons only, so the result is exact and deterministic.
// Naive on purpose (k passes over the row, uncoalesced: neighbouring threads read different rows) but
// obviously correct.
#pragma once
#include <cuda_bf16.h>

template <typename T>
__global__ void topk_reference_kernel(T* out, const T* in, int rows, int cols, int k) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const T* x = in + static_cast<long long>(row) * cols;
  T* y = out + static_cast<long long>(row) * k;
  T previous = x[0];
  int previous_written = 0;  // copies of `previous` written so far
  for (int r = 0; r < k; ++r) {
    int previous_count = 0;  // copies of `previous` in the row
    bool found = false;      // a value strictly below `previous` (any value when r == 0)
    T best = x[0];
    for (int c = 0; c < cols; ++c) {
      T const v = x[c];
      float const value = static_cast<float>(v);
      if (r > 0 && value == static_cast<float>(previous)) {
        ++previous_count;
      } else if ((r == 0 || value < static_cast<float>(previous)) &&
                 (!found || value > static_cast<float>(best))) {
        best = v;
        found = true;
      }
    }
    if (r > 0 && previous_count > previous_written) {
      y[r] = previous;
      ++previous_written;
    } else {
      y[r] = best;
      previous = best;
      previous_written = 1;
    }
  }
}

template <typename T>
void topk_reference(T* out, const T* in, int rows, int cols, int k) {
  if (rows <= 0 || cols <= 0 || k <= 0 || k > cols) return;
  int const block = 32;  // one warp per block: spreads the few rows over many SMs
  topk_reference_kernel<T><<<(rows + block - 1) / block, block>>>(out, in, rows, cols, k);
}
