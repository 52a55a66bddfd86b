// y[j] = mean of column j (the suite's col_sum reference, divided by M): one thread per column, a double
// sum of the widened values, one rounding to BF16.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void mean_dim0_bf16_kernel(const __nv_bfloat16* x, __nv_bfloat16* y, int64_t M, int64_t N) {
  int64_t const j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= N) return;
  double sum = 0.0;
  for (int64_t i = 0; i < M; ++i) sum += static_cast<double>(__bfloat162float(x[i * N + j]));
  y[j] = __double2bfloat16(sum / static_cast<double>(M));
}

extern "C" void mean_dim0_bf16(const __nv_bfloat16* x, __nv_bfloat16* y, int64_t M, int64_t N) {
  if (M <= 0 || N <= 0) return;
  mean_dim0_bf16_kernel<<<static_cast<unsigned>((N + 127) / 128), 128>>>(x, y, M, N);
}
