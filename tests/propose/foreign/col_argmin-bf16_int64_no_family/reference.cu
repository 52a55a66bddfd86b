// One thread per column walks down it in order (the first minimum wins), int64_t sizes.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void colwise_argmin_kernel(int* indices, const __nv_bfloat16* values, int64_t num_rows,
                                      int64_t num_cols) {
  int64_t const j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= num_cols) return;
  int64_t best = 0;
  float best_value = __bfloat162float(values[j]);
  for (int64_t i = 1; i < num_rows; ++i) {
    float const v = __bfloat162float(values[i * num_cols + j]);
    if (v < best_value) {
      best = i;
      best_value = v;
    }
  }
  indices[j] = static_cast<int>(best);
}

extern "C" void colwise_argmin(int* indices, const __nv_bfloat16* values, int64_t num_rows,
                               int64_t num_cols) {
  if (num_cols <= 0) return;
  colwise_argmin_kernel<<<static_cast<unsigned>((num_cols + 127) / 128), 128>>>(indices, values, num_rows,
                                                                                num_cols);
}
