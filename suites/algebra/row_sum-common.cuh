// Shared by row_sum-f32 and row_sum-bf16: out[r] = sum_c in[r*cols + c] for a row-major rows x cols
// matrix. One thread per row, walking its whole row out of global memory (neighbouring threads read rows
// cols elements apart, so loads are uncoalesced). The sum is accumulated in double, which costs nothing
// in this memory-bound loop and keeps the reference the accurate side of every comparison, and rounded
// once to the output type. Naive on purpose but obviously correct.
#pragma once
#include <cuda_bf16.h>

template <typename T>
__global__ void row_sum_reference_kernel(T* out, const T* in, int rows, int cols) {
  long long const row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const T* x = in + row * cols;
  double sum = 0.0;
  for (int c = 0; c < cols; ++c) sum += static_cast<double>(static_cast<float>(x[c]));
  out[row] = static_cast<T>(sum);
}

template <typename T>
void row_sum_reference(T* out, const T* in, int rows, int cols) {
  if (rows <= 0) return;
  int const block = 256;
  row_sum_reference_kernel<T><<<(rows + block - 1) / block, block>>>(out, in, rows, cols < 0 ? 0 : cols);
}
