// One thread per column walks down it (the first maximum wins), size_t sizes.
#include <cstddef>

__global__ void column_argmax_kernel(const float* matrix, int* result, size_t ncols, size_t nrows) {
  size_t const c = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= ncols) return;
  size_t best = 0;
  float best_value = matrix[c];
  for (size_t r = 1; r < nrows; ++r) {
    float const v = matrix[r * ncols + c];
    if (v > best_value) {
      best = r;
      best_value = v;
    }
  }
  result[c] = static_cast<int>(best);
}

extern "C" void column_argmax(const float* matrix, int* result, size_t ncols, size_t nrows) {
  if (ncols == 0) return;
  column_argmax_kernel<<<static_cast<unsigned>((ncols + 63) / 64), 64>>>(matrix, result, ncols, nrows);
}
