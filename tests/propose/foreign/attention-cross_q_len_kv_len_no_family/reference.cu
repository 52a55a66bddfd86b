// Cross-attention, one thread per query row: scores against the kv_len keys in float, the softmax and the
// weighted sum of value rows in double, written once. Head dimensions up to 128.
#include <cmath>

__global__ void cross_attn_kernel(const float* q, const float* k, const float* v, float* out, long long rows,
                                  int q_len, int kv_len, int head_dim) {
  long long const row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  long long const kv = row / q_len * kv_len * head_dim;  // the slice's keys and values
  const float* qr = q + row * head_dim;
  float const scale = 1.0f / sqrtf(static_cast<float>(head_dim));
  float max_score = -INFINITY;
  for (int j = 0; j < kv_len; ++j) {
    float dot = 0.0f;
    for (int d = 0; d < head_dim; ++d) dot += qr[d] * k[kv + static_cast<long long>(j) * head_dim + d];
    max_score = fmaxf(max_score, dot * scale);
  }
  double acc[128];
  for (int d = 0; d < head_dim; ++d) acc[d] = 0.0;
  double sum = 0.0;
  for (int j = 0; j < kv_len; ++j) {
    float dot = 0.0f;
    for (int d = 0; d < head_dim; ++d) dot += qr[d] * k[kv + static_cast<long long>(j) * head_dim + d];
    double const p = exp(static_cast<double>(dot * scale - max_score));
    sum += p;
    for (int d = 0; d < head_dim; ++d) acc[d] += p * v[kv + static_cast<long long>(j) * head_dim + d];
  }
  for (int d = 0; d < head_dim; ++d) out[row * head_dim + d] = static_cast<float>(acc[d] / sum);
}

extern "C" void cross_attn(const float* q, const float* k, const float* v, float* out, int bh, int q_len,
                           int kv_len, int head_dim) {
  long long const rows = static_cast<long long>(bh) * q_len;
  if (rows <= 0 || kv_len <= 0 || head_dim <= 0 || head_dim > 128) return;
  cross_attn_kernel<<<static_cast<unsigned>((rows + 127) / 128), 128>>>(q, k, v, out, rows, q_len, kv_len,
                                                                        head_dim);
}
