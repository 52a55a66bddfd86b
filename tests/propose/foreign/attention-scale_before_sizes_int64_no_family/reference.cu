// Causal attention with the caller's scale, one thread per query row i of a slice: keys 0 .. i, scores in
// float, the softmax and the weighted sum of value rows in double, written once. Head dimensions up to 128.
#include <cstdint>

__global__ void causal_attention_kernel(float* o, const float* q, const float* k, const float* v, float scale,
                                        int64_t rows, int64_t s, int64_t d) {
  int64_t const row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  int64_t const i = row % s;
  int64_t const slice = row / s * s * d;
  const float* qr = q + row * d;
  float max_score = -INFINITY;
  for (int64_t j = 0; j <= i; ++j) {
    float dot = 0.0f;
    for (int64_t e = 0; e < d; ++e) dot += qr[e] * k[slice + j * d + e];
    max_score = fmaxf(max_score, dot * scale);
  }
  double acc[128];
  for (int64_t e = 0; e < d; ++e) acc[e] = 0.0;
  double sum = 0.0;
  for (int64_t j = 0; j <= i; ++j) {
    float dot = 0.0f;
    for (int64_t e = 0; e < d; ++e) dot += qr[e] * k[slice + j * d + e];
    double const p = exp(static_cast<double>(dot * scale - max_score));
    sum += p;
    for (int64_t e = 0; e < d; ++e) acc[e] += p * v[slice + j * d + e];
  }
  for (int64_t e = 0; e < d; ++e) o[row * d + e] = static_cast<float>(acc[e] / sum);
}

extern "C" void causal_attention_scaled(float* o, const float* q, const float* k, const float* v, float scale,
                                        int64_t bh, int64_t s, int64_t d) {
  int64_t const rows = bh * s;
  if (rows <= 0 || d <= 0 || d > 128) return;
  causal_attention_kernel<<<static_cast<unsigned>((rows + 127) / 128), 128>>>(o, q, k, v, scale, rows, s, d);
}
