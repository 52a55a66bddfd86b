// Scaled dot-product attention, one thread per query row (b, h, i): the scores query . key / sqrt(head_dim)
// of every key in float, their maximum, then the exponentials, their sum and the weighted sum of the value
// rows, each accumulated in double over the row and written once. Head dimensions up to 128.
#include <cmath>

__global__ void sdpa_forward_kernel(const float* query, const float* key, const float* value, float* out,
                                    long long rows, int seq_len, int head_dim) {
  long long const row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  long long const slice = row / seq_len * seq_len * head_dim;  // (b, h)'s [seq_len][head_dim] block
  const float* q = query + row * head_dim;
  float const scale = 1.0f / sqrtf(static_cast<float>(head_dim));
  float max_score = -INFINITY;
  for (int j = 0; j < seq_len; ++j) {
    const float* k = key + slice + static_cast<long long>(j) * head_dim;
    float dot = 0.0f;
    for (int d = 0; d < head_dim; ++d) dot += q[d] * k[d];
    max_score = fmaxf(max_score, dot * scale);
  }
  double acc[128];
  for (int d = 0; d < head_dim; ++d) acc[d] = 0.0;
  double sum = 0.0;
  for (int j = 0; j < seq_len; ++j) {
    const float* k = key + slice + static_cast<long long>(j) * head_dim;
    const float* v = value + slice + static_cast<long long>(j) * head_dim;
    float dot = 0.0f;
    for (int d = 0; d < head_dim; ++d) dot += q[d] * k[d];
    double const p = exp(static_cast<double>(dot * scale - max_score));
    sum += p;
    for (int d = 0; d < head_dim; ++d) acc[d] += p * v[d];
  }
  for (int d = 0; d < head_dim; ++d) out[row * head_dim + d] = static_cast<float>(acc[d] / sum);
}

extern "C" void sdpa_forward(const float* query, const float* key, const float* value, float* out, int batch,
                             int num_heads, int seq_len, int head_dim) {
  long long const rows = static_cast<long long>(batch) * num_heads * seq_len;
  if (rows <= 0 || head_dim <= 0 || head_dim > 128) return;
  sdpa_forward_kernel<<<static_cast<unsigned>((rows + 127) / 128), 128>>>(query, key, value, out, rows,
                                                                          seq_len, head_dim);
}
