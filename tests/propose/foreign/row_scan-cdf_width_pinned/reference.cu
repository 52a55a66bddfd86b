// One thread per row of 2048 probabilities, a float running sum.
constexpr int kVocab = 2048;

__global__ void probs_cdf_kernel(const float* probs, float* cdf, int batch) {
  int const b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const float* p = probs + static_cast<long long>(b) * kVocab;
  float* out = cdf + static_cast<long long>(b) * kVocab;
  float total = 0.0f;
  for (int v = 0; v < kVocab; ++v) {
    total += p[v];
    out[v] = total;
  }
}

extern "C" void probs_cdf_2048(const float* probs, float* cdf, int batch) {
  if (batch <= 0) return;
  probs_cdf_kernel<<<(batch + 127) / 128, 128>>>(probs, cdf, batch);
}
