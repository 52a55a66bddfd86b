// One thread per row, topk scans: scan j takes the largest value that comes after scan j-1's pick (a
// smaller value, or an equal one further right), the leftmost of equal values.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void row_topk_bf16_kernel(const __nv_bfloat16* x, __nv_bfloat16* out_vals, int32_t* out_idx,
                                     int64_t n_rows, int64_t n_cols, int64_t topk) {
  int64_t const r = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= n_rows) return;
  const __nv_bfloat16* row = x + r * n_cols;
  float last = 0.0f;
  int64_t last_col = -1;
  for (int64_t j = 0; j < topk; ++j) {
    int64_t best = -1;
    for (int64_t c = 0; c < n_cols; ++c) {
      float const v = __bfloat162float(row[c]);
      bool const after_last = last_col < 0 || v < last || (v == last && c > last_col);
      if (after_last && (best < 0 || v > __bfloat162float(row[best]))) best = c;
    }
    out_vals[r * topk + j] = row[best];
    out_idx[r * topk + j] = static_cast<int32_t>(best);
    last = __bfloat162float(row[best]);
    last_col = best;
  }
}

extern "C" void row_topk_bf16(const __nv_bfloat16* x, __nv_bfloat16* out_vals, int32_t* out_idx,
                              int64_t n_rows, int64_t n_cols, int64_t topk) {
  if (n_rows <= 0) return;
  row_topk_bf16_kernel<<<static_cast<unsigned>((n_rows + 63) / 64), 64>>>(x, out_vals, out_idx, n_rows,
                                                                          n_cols, topk);
}
