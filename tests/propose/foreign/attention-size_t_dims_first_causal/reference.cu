// Causal scaled dot-product attention, one thread per query row (b, i): the scores Q . K / sqrt(d) of keys
// 0..i in float, their maximum, then the exponentials, their sum and the weighted sum of the V rows, each
// accumulated in double over the row and written once. Head dimensions up to 128.
#include <cmath>
#include <cstddef>

__global__ void mha_forward_kernel(size_t rows, size_t s, size_t d, const float* Q, const float* K,
                                   const float* V, float* O) {
  size_t const row = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  size_t const i = row % s;
  size_t const slice = (row - i) * d;  // the slice's [s][d] block
  const float* q = Q + row * d;
  float const scale = 1.0f / sqrtf(static_cast<float>(d));
  float max_score = -INFINITY;
  for (size_t j = 0; j <= i; ++j) {
    float dot = 0.0f;
    for (size_t c = 0; c < d; ++c) dot += q[c] * K[slice + j * d + c];
    max_score = fmaxf(max_score, dot * scale);
  }
  double acc[128];
  for (size_t c = 0; c < d; ++c) acc[c] = 0.0;
  double sum = 0.0;
  for (size_t j = 0; j <= i; ++j) {
    float dot = 0.0f;
    for (size_t c = 0; c < d; ++c) dot += q[c] * K[slice + j * d + c];
    double const p = exp(static_cast<double>(dot * scale - max_score));
    sum += p;
    for (size_t c = 0; c < d; ++c) acc[c] += p * V[slice + j * d + c];
  }
  for (size_t c = 0; c < d; ++c) O[row * d + c] = static_cast<float>(acc[c] / sum);
}

extern "C" void mha_forward(size_t bh, size_t s, size_t d, const float* Q, const float* K, const float* V,
                            float* O) {
  size_t const rows = bh * s;
  if (rows == 0 || d == 0 || d > 128) return;
  mha_forward_kernel<<<static_cast<unsigned>((rows + 127) / 128), 128>>>(rows, s, d, Q, K, V, O);
}
