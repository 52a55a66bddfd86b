// One thread per row, a float running sum, each output rounded to BF16.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void cumsum_bf16_rows_kernel(const __nv_bfloat16* input, size_t num_rows, size_t num_cols,
                                        __nv_bfloat16* output) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= num_rows) return;
  const __nv_bfloat16* src = input + i * num_cols;
  __nv_bfloat16* dst = output + i * num_cols;
  float running = 0.0f;
  for (size_t j = 0; j < num_cols; ++j) {
    running += __bfloat162float(src[j]);
    dst[j] = __float2bfloat16(running);
  }
}

extern "C" void cumsum_bf16_rows(const __nv_bfloat16* input, size_t num_rows, size_t num_cols,
                                 __nv_bfloat16* output) {
  if (num_rows == 0) return;
  cumsum_bf16_rows_kernel<<<static_cast<unsigned>((num_rows + 31) / 32), 32>>>(input, num_rows, num_cols,
                                                                               output);
}
