// One thread per row, a float running sum of the kept elements; each output rounded to BF16.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void keep_cumsum_bf16_kernel(const uint8_t* keep, const __nv_bfloat16* x, int rows, int cols,
                                        __nv_bfloat16* y) {
  int const r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  long long const base = static_cast<long long>(r) * cols;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) {
    if (keep[base + c] != 0) s += __bfloat162float(x[base + c]);
    y[base + c] = __float2bfloat16(s);
  }
}

extern "C" void keep_cumsum_bf16(const uint8_t* keep, const __nv_bfloat16* x, int rows, int cols,
                                 __nv_bfloat16* y) {
  if (rows <= 0) return;
  keep_cumsum_bf16_kernel<<<(rows + 63) / 64, 64>>>(keep, x, rows, cols, y);
}
