// Same-size zero-padded cross-correlation with 7 taps (the suite's conv1d reference): one thread per
// output, FP32 accumulation of the widened values in tap order, one rounding to BF16.
#include <cuda_bf16.h>

constexpr int kTaps = 7;

__global__ void smooth7_bf16_kernel(__nv_bfloat16* y, const __nv_bfloat16* x, const __nv_bfloat16* taps,
                                    int n) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long const first = i - kTaps / 2;
  float sum = 0.0f;
  for (int k = 0; k < kTaps; ++k) {
    long long const j = first + k;
    if (j < 0 || j >= n) continue;
    sum += __bfloat162float(taps[k]) * __bfloat162float(x[j]);
  }
  y[i] = __float2bfloat16_rn(sum);
}

extern "C" void smooth7_bf16(__nv_bfloat16* y, const __nv_bfloat16* x, const __nv_bfloat16* taps, int n) {
  if (n <= 0) return;
  smooth7_bf16_kernel<<<(n + 255) / 256, 256>>>(y, x, taps, n);
}
