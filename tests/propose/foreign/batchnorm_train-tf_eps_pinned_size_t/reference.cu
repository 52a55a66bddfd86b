// Training-mode batch norm with Keras' epsilon hard-coded: one thread per channel, two passes in double
// (mean, then squared deviations), then one thread per element with the statistics in double.
#include <cstddef>

constexpr double kEpsilon = 1e-3;

__global__ void channel_stats(const float* x, float* mean, float* variance, double* stats, size_t batch,
                              size_t channels, size_t plane) {
  size_t const c = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= channels) return;
  double const count = static_cast<double>(batch * plane);
  double sum = 0.0;
  for (size_t b = 0; b < batch; ++b)
    for (size_t i = 0; i < plane; ++i) sum += x[(b * channels + c) * plane + i];
  double const m = sum / count;
  double sq = 0.0;
  for (size_t b = 0; b < batch; ++b)
    for (size_t i = 0; i < plane; ++i) {
      double const d = x[(b * channels + c) * plane + i] - m;
      sq += d * d;
    }
  double const v = sq / count;
  mean[c] = static_cast<float>(m);
  variance[c] = static_cast<float>(v);
  stats[2 * c] = m;
  stats[2 * c + 1] = 1.0 / sqrt(v + kEpsilon);
}

__global__ void normalize(float* y, const float* x, const float* gamma, const float* beta,
                          const double* stats, size_t total, size_t channels, size_t plane) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  size_t const c = (i / plane) % channels;
  y[i] = static_cast<float>((x[i] - stats[2 * c]) * stats[2 * c + 1] * gamma[c] + beta[c]);
}

extern "C" void batch_norm_train_f32(float* y, const float* x, const float* gamma, const float* beta,
                                     float* mean, float* variance, size_t batch, size_t channels,
                                     size_t height, size_t width) {
  static double* stats = nullptr;
  static size_t capacity = 0;
  if (channels > capacity) {
    if (stats != nullptr) cudaFree(stats);
    if (cudaMalloc(&stats, 2 * channels * sizeof(double)) != cudaSuccess) return;
    capacity = channels;
  }
  size_t const plane = height * width;
  channel_stats<<<static_cast<unsigned>((channels + 127) / 128), 128>>>(x, mean, variance, stats, batch,
                                                                        channels, plane);
  size_t const total = batch * channels * plane;
  normalize<<<static_cast<unsigned>((total + 255) / 256), 256>>>(y, x, gamma, beta, stats, total, channels,
                                                                 plane);
}
