// scores[h] = scale * q[h] k_t[h]: one thread per score, blockIdx.z = h, double accumulation, one rounding.
__global__ void qk_scores_scaled_kernel(const float* q, const float* k_t, float* scores, int seq,
                                        int head_dim, float scale) {
  int const col = blockIdx.x * blockDim.x + threadIdx.x;
  int const row = blockIdx.y * blockDim.y + threadIdx.y;
  long long const h = blockIdx.z;
  if (row >= seq || col >= seq) return;
  const float* a = q + h * seq * head_dim;
  const float* b = k_t + h * head_dim * seq;
  double sum = 0.0;
  for (int d = 0; d < head_dim; ++d)
    sum += static_cast<double>(a[static_cast<long long>(row) * head_dim + d]) *
           static_cast<double>(b[static_cast<long long>(d) * seq + col]);
  scores[h * seq * seq + static_cast<long long>(row) * seq + col] = static_cast<float>(scale * sum);
}

extern "C" void qk_scores_scaled(const float* q, const float* k_t, float* scores, int batch_heads, int seq,
                                 int head_dim, float scale) {
  if (batch_heads <= 0 || seq <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((seq + 15) / 16, (seq + 15) / 16, batch_heads);
  qk_scores_scaled_kernel<<<grid, block>>>(q, k_t, scores, seq, head_dim, scale);
}
