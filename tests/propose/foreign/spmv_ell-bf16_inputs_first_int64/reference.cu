// y = A x, A in ELLPACK (row-major slots, padding column -1): one thread per row, FP32 accumulation of the
// widened values in slot order, one rounding to BF16 (the suite's spmv_ell reference).
#include <cuda_bf16.h>

#include <cstdint>

__global__ void ell_spmv_bf16_kernel(const __nv_bfloat16* x, const int* indices, const __nv_bfloat16* data,
                                     __nv_bfloat16* y, int64_t num_rows, int64_t num_entries_per_row) {
  int64_t const row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= num_rows) return;
  float sum = 0.0f;
  for (int64_t s = row * num_entries_per_row; s < (row + 1) * num_entries_per_row; ++s) {
    int const col = indices[s];
    if (col < 0) continue;
    sum += __bfloat162float(data[s]) * __bfloat162float(x[col]);
  }
  y[row] = __float2bfloat16_rn(sum);
}

extern "C" void ell_spmv_bf16(const __nv_bfloat16* x, const int* indices, const __nv_bfloat16* data,
                              __nv_bfloat16* y, int64_t num_rows, int64_t num_cols,
                              int64_t num_entries_per_row) {
  (void)num_cols;
  if (num_rows <= 0) return;
  ell_spmv_bf16_kernel<<<static_cast<unsigned>((num_rows + 255) / 256), 256>>>(x, indices, data, y, num_rows,
                                                                               num_entries_per_row);
}
