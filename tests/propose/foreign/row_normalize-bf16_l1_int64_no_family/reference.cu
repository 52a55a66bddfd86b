// F.normalize(x, p=1, dim=-1) in BF16: one warp per row sums the absolute values in double (warp shuffles),
// then divides each element by max(sum, 1e-12) in double and rounds it once to BF16.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void renormalize_l1_kernel(const __nv_bfloat16* scores, __nv_bfloat16* normalized,
                                      int64_t num_rows, int64_t row_len) {
  int64_t const row = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  int const lane = threadIdx.x % 32;
  if (row >= num_rows) return;  // the same for the whole warp
  const __nv_bfloat16* in = scores + row * row_len;
  __nv_bfloat16* out = normalized + row * row_len;
  double sum = 0.0;
  for (int64_t j = lane; j < row_len; j += 32) sum += fabs(static_cast<double>(__bfloat162float(in[j])));
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  double const denominator = fmax(sum, 1e-12);
  for (int64_t j = lane; j < row_len; j += 32) {
    out[j] = __float2bfloat16_rn(static_cast<float>(__bfloat162float(in[j]) / denominator));
  }
}

extern "C" void renormalize_l1_bf16(const __nv_bfloat16* scores, __nv_bfloat16* normalized, int64_t num_rows,
                                    int64_t row_len) {
  if (num_rows <= 0 || row_len <= 0) return;
  int64_t const rows_per_block = 8;
  renormalize_l1_kernel<<<static_cast<unsigned>((num_rows + rows_per_block - 1) / rows_per_block),
                          32 * rows_per_block>>>(scores, normalized, num_rows, row_len);
}
