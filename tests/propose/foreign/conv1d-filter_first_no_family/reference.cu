// Same-size zero-padded cross-correlation (the suite's conv1d reference): one thread per output, FP32
// accumulation in tap order, one rounding.
#include <cstdint>

__global__ void conv1d_same_kernel(const float* filter, int filter_len, const float* signal, float* result,
                                   int64_t length) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= length) return;
  int64_t const first = i - filter_len / 2;
  float sum = 0.0f;
  for (int k = 0; k < filter_len; ++k) {
    int64_t const j = first + k;
    if (j < 0 || j >= length) continue;
    sum += filter[k] * signal[j];
  }
  result[i] = sum;
}

extern "C" void conv1d_same(const float* filter, int filter_len, const float* signal, float* result,
                            int64_t length) {
  if (length <= 0) return;
  conv1d_same_kernel<<<static_cast<unsigned>((length + 255) / 256), 256>>>(filter, filter_len, signal, result,
                                                                           length);
}
