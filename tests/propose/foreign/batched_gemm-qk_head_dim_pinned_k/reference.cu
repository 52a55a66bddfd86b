// scores[h] = q[h] * k_t[h] with a head dimension of 64: one thread per score, blockIdx.z = head, double
// accumulation, one rounding (the suite's batched_gemm reference).
constexpr int kHeadDim = 64;

__global__ void qk_scores_kernel(const float* q, const float* k_t, float* scores, int seq) {
  int const j = blockIdx.x * blockDim.x + threadIdx.x;
  int const i = blockIdx.y * blockDim.y + threadIdx.y;
  long long const h = blockIdx.z;
  if (i >= seq || j >= seq) return;
  const float* qi = q + (h * seq + i) * kHeadDim;
  const float* kh = k_t + h * kHeadDim * seq;
  double sum = 0.0;
  for (int d = 0; d < kHeadDim; ++d)
    sum += static_cast<double>(qi[d]) * static_cast<double>(kh[static_cast<long long>(d) * seq + j]);
  scores[(h * seq + i) * seq + j] = static_cast<float>(sum);
}

extern "C" void qk_scores_d64(const float* q, const float* k_t, float* scores, int batch_heads, int seq) {
  if (batch_heads <= 0 || seq <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((seq + 15) / 16, (seq + 15) / 16, batch_heads);
  qk_scores_kernel<<<grid, block>>>(q, k_t, scores, seq);
}
