// One thread per column walks down it in order (the first maximum wins).
#include <cuda_bf16.h>

__global__ void best_row_kernel(int* best_row, const __nv_bfloat16* scores, int height, int width) {
  int const x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  int best = 0;
  float best_value = __bfloat162float(scores[x]);
  for (int y = 1; y < height; ++y) {
    float const v = __bfloat162float(scores[static_cast<long long>(y) * width + x]);
    if (v > best_value) {
      best = y;
      best_value = v;
    }
  }
  best_row[x] = best;
}

extern "C" void best_row_per_column(int* best_row, const __nv_bfloat16* scores, int height, int width) {
  if (width <= 0) return;
  best_row_kernel<<<(width + 127) / 128, 128>>>(best_row, scores, height, width);
}
