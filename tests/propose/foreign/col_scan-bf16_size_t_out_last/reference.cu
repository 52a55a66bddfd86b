// One thread per column, a float running sum, each output rounded to BF16.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void cumsum_dim0_bf16_kernel(const __nv_bfloat16* input, size_t num_rows, size_t num_cols,
                                        __nv_bfloat16* output) {
  size_t const j = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= num_cols) return;
  float running = 0.0f;
  for (size_t i = 0; i < num_rows; ++i) {
    running += __bfloat162float(input[i * num_cols + j]);
    output[i * num_cols + j] = __float2bfloat16(running);
  }
}

extern "C" void cumsum_dim0_bf16(const __nv_bfloat16* input, size_t num_rows, size_t num_cols,
                                 __nv_bfloat16* output) {
  if (num_cols == 0) return;
  cumsum_dim0_bf16_kernel<<<static_cast<unsigned>((num_cols + 31) / 32), 32>>>(input, num_rows, num_cols,
                                                                               output);
}
