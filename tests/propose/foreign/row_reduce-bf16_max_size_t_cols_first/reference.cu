// dst[r] = maximum of row r: one thread per row, comparisons only (exact).
#include <cuda_bf16.h>

#include <cstddef>

__global__ void row_max_bf16_kernel(const __nv_bfloat16* src, __nv_bfloat16* dst, size_t ncols,
                                    size_t nrows) {
  size_t const r = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= nrows) return;
  const __nv_bfloat16* row = src + r * ncols;
  float best = __bfloat162float(row[0]);
  for (size_t c = 1; c < ncols; ++c) best = fmaxf(best, __bfloat162float(row[c]));
  dst[r] = __float2bfloat16(best);
}

extern "C" void row_max_bf16(const __nv_bfloat16* src, __nv_bfloat16* dst, size_t ncols, size_t nrows) {
  if (nrows == 0 || ncols == 0) return;
  row_max_bf16_kernel<<<static_cast<unsigned>((nrows + 255) / 256), 256>>>(src, dst, ncols, nrows);
}
