// One thread per row scans it in order (the first maximum wins).
#include <cuda_bf16.h>

__global__ void argmax_bf16_kernel(int* indices, const __nv_bfloat16* scores, int num_rows, int num_cols) {
  int const r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= num_rows) return;
  const __nv_bfloat16* row = scores + static_cast<long long>(r) * num_cols;
  int best = 0;
  float best_value = __bfloat162float(row[0]);
  for (int c = 1; c < num_cols; ++c) {
    float const v = __bfloat162float(row[c]);
    if (v > best_value) {
      best = c;
      best_value = v;
    }
  }
  indices[r] = best;
}

extern "C" void argmax_bf16(int* indices, const __nv_bfloat16* scores, int num_rows, int num_cols) {
  if (num_rows <= 0) return;
  argmax_bf16_kernel<<<(num_rows + 127) / 128, 128>>>(indices, scores, num_rows, num_cols);
}
