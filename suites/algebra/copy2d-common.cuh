// Shared by copy2d-f32 and copy2d-bf16: a pitched 2-D copy, out[r * ld_out + c] = in[r * ld_in + c] for
// r < rows, c < cols (strides in elements; x[:, a:b].contiguous(), out[:, a:b] = x, cudaMemcpy2D). Elements
// of out between cols and ld_out are not written. Reference: one thread per copied element, scalar loads
// and stores, naive on purpose but obviously correct. Vendor baseline: cudaMemcpy2DAsync (pitches and
// width in bytes) on the per-thread default stream kopt times on.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstddef>

template <typename T>
__global__ void copy2d_reference_kernel(T* out, const T* in, int rows, int cols, int ld_out, int ld_in) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(rows) * cols) return;
  long long const r = i / cols;
  long long const c = i % cols;
  out[r * ld_out + c] = in[r * ld_in + c];
}

template <typename T>
void copy2d_reference(T* out, const T* in, int rows, int cols, int ld_out, int ld_in) {
  if (rows <= 0 || cols <= 0) return;
  int const block = 256;
  long long const n = static_cast<long long>(rows) * cols;
  copy2d_reference_kernel<T>
      <<<static_cast<unsigned>((n + block - 1) / block), block>>>(out, in, rows, cols, ld_out, ld_in);
}

template <typename T>
void copy2d_baseline_memcpy2d(T* out, const T* in, int rows, int cols, int ld_out, int ld_in) {
  if (rows <= 0 || cols <= 0) return;
  cudaMemcpy2DAsync(out, static_cast<std::size_t>(ld_out) * sizeof(T), in,
                    static_cast<std::size_t>(ld_in) * sizeof(T), static_cast<std::size_t>(cols) * sizeof(T),
                    static_cast<std::size_t>(rows), cudaMemcpyDeviceToDevice, cudaStreamPerThread);
}
