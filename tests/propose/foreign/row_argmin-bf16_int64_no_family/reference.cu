// One thread per row scans it in order (the first minimum wins), int64_t sizes.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void argmin_rows_bf16_kernel(const __nv_bfloat16* x, int* idx, int64_t M, int64_t N) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= M) return;
  const __nv_bfloat16* row = x + i * N;
  int64_t best = 0;
  float best_value = __bfloat162float(row[0]);
  for (int64_t j = 1; j < N; ++j) {
    float const v = __bfloat162float(row[j]);
    if (v < best_value) {
      best = j;
      best_value = v;
    }
  }
  idx[i] = static_cast<int>(best);
}

extern "C" void argmin_rows_bf16(const __nv_bfloat16* x, int* idx, int64_t M, int64_t N) {
  if (M <= 0) return;
  argmin_rows_bf16_kernel<<<static_cast<unsigned>((M + 127) / 128), 128>>>(x, idx, M, N);
}
