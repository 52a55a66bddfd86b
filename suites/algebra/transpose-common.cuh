// Shared by transpose-f32 and transpose-bf16: out (cols x rows) = in (rows x cols) transposed, both
// row-major. One thread per element in 16 x 16 blocks; thread (x, y) copies in[y][x] to out[x][y].
// Reads are coalesced, writes are strided by a whole row: naive on purpose but obviously correct.
#pragma once
#include <cuda_bf16.h>

template <typename T>
__global__ void transpose_reference_kernel(T* out, const T* in, int rows, int cols) {
  int const c = blockIdx.x * blockDim.x + threadIdx.x;
  int const r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= rows || c >= cols) return;
  out[static_cast<long long>(c) * rows + r] = in[static_cast<long long>(r) * cols + c];
}

template <typename T>
void transpose_reference(T* out, const T* in, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  transpose_reference_kernel<T><<<grid, block>>>(out, in, rows, cols);
}
