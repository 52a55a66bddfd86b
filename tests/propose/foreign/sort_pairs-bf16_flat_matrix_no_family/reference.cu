// A thread per matrix entry (r, c): its place among all entries in row-major order is the number of
// smaller scores plus the number of equal scores earlier in that order.
#include <cuda_bf16.h>

__global__ void sort_all_kernel(const __nv_bfloat16* scores, const int* token_ids, int rows, int cols,
                                __nv_bfloat16* out_scores, int* out_ids) {
  int const c = blockIdx.x * blockDim.x + threadIdx.x;
  int const r = blockIdx.y;
  if (c >= cols || r >= rows) return;
  int const me = r * cols + c;
  float const s = __bfloat162float(scores[me]);
  int place = 0;
  for (int k = 0; k < rows * cols; ++k) {
    float const t = __bfloat162float(scores[k]);
    place += (t < s || (t == s && k < me)) ? 1 : 0;
  }
  out_scores[place] = scores[me];
  out_ids[place] = token_ids[me];
}

extern "C" void sort_all_scores(const __nv_bfloat16* scores, const int* token_ids, int rows, int cols,
                                __nv_bfloat16* out_scores, int* out_ids) {
  if (rows <= 0 || cols <= 0) return;
  dim3 const grid((cols + 127) / 128, rows);
  sort_all_kernel<<<grid, 128>>>(scores, token_ids, rows, cols, out_scores, out_ids);
}
