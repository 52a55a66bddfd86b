// One thread per outer index, a float running product in order; each output rounded to BF16.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void cumprod_lastdim_bf16_kernel(const __nv_bfloat16* self, __nv_bfloat16* result,
                                            int64_t outer_size, int64_t dim_size) {
  int64_t const o = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (o >= outer_size) return;
  float acc = 1.0f;
  for (int64_t k = 0; k < dim_size; ++k) {
    acc *= __bfloat162float(self[o * dim_size + k]);
    result[o * dim_size + k] = __float2bfloat16(acc);
  }
}

extern "C" void cumprod_lastdim_bf16(const __nv_bfloat16* self, __nv_bfloat16* result, int64_t outer_size,
                                     int64_t dim_size) {
  if (outer_size <= 0 || dim_size <= 0) return;
  cumprod_lastdim_bf16_kernel<<<static_cast<unsigned>((outer_size + 127) / 128), 128>>>(self, result,
                                                                                        outer_size, dim_size);
}
