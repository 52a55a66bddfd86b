// Training batch norm with running statistics, naive: one thread per channel, two passes in double for the
// statistics (then the running update), one thread per element for the output.
#include <cstdint>

__global__ void bn_stats_kernel(const float* input, float* running_mean, float* running_var, float* save_mean,
                                float* save_invstd, double* invstd_d, double* mean_d, int64_t N, int64_t C,
                                int64_t hw, double momentum, double eps) {
  int64_t const c = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (c >= C) return;
  double const count = static_cast<double>(N * hw);
  double sum = 0.0;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t i = 0; i < hw; ++i) sum += input[(n * C + c) * hw + i];
  double const mean = sum / count;
  double squares = 0.0;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t i = 0; i < hw; ++i) {
      double const d = input[(n * C + c) * hw + i] - mean;
      squares += d * d;
    }
  double const var = squares / count;
  double const invstd = 1.0 / sqrt(var + eps);
  save_mean[c] = static_cast<float>(mean);
  save_invstd[c] = static_cast<float>(invstd);
  running_mean[c] = static_cast<float>((1.0 - momentum) * running_mean[c] + momentum * mean);
  running_var[c] =
      static_cast<float>((1.0 - momentum) * running_var[c] + momentum * var * count / (count - 1.0));
  mean_d[c] = mean;
  invstd_d[c] = invstd;
}

__global__ void bn_apply_kernel(const float* input, const float* weight, const float* bias, float* output,
                                const double* mean_d, const double* invstd_d, int64_t total, int64_t C,
                                int64_t hw) {
  int64_t const i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i >= total) return;
  int64_t const c = (i / hw) % C;
  output[i] = static_cast<float>((input[i] - mean_d[c]) * invstd_d[c] * weight[c] + bias[c]);
}

extern "C" void batch_norm_forward_train(const float* input, const float* weight, const float* bias,
                                         float* running_mean, float* running_var, float* output,
                                         float* save_mean, float* save_invstd, int64_t N, int64_t C,
                                         int64_t H, int64_t W, double momentum, double eps) {
  if (C <= 0) return;
  double* stats = nullptr;
  if (cudaMalloc(&stats, 2 * C * sizeof(double)) != cudaSuccess) return;
  bn_stats_kernel<<<static_cast<unsigned>((C + 127) / 128), 128>>>(
      input, running_mean, running_var, save_mean, save_invstd, stats + C, stats, N, C, H * W, momentum, eps);
  int64_t const total = N * C * H * W;
  if (total > 0)
    bn_apply_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(input, weight, bias, output, stats,
                                                                         stats + C, total, C, H * W);
  cudaFree(stats);
}
