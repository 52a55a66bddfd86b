// One thread per row, walking it from its end with a float running sum; each output rounded to BF16.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void suffix_sum_bf16_kernel(const __nv_bfloat16* x, size_t n_rows, size_t n_cols,
                                       __nv_bfloat16* suffix) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n_rows) return;
  float running = 0.0f;
  for (size_t j = n_cols; j-- > 0;) {
    running += __bfloat162float(x[i * n_cols + j]);
    suffix[i * n_cols + j] = __float2bfloat16(running);
  }
}

extern "C" void suffix_sum_bf16(const __nv_bfloat16* x, size_t n_rows, size_t n_cols, __nv_bfloat16* suffix) {
  if (n_rows == 0) return;
  suffix_sum_bf16_kernel<<<static_cast<unsigned>((n_rows + 63) / 64), 64>>>(x, n_rows, n_cols, suffix);
}
