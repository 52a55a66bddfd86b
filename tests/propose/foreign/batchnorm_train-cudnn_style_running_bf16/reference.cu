// cuDNN-style training batch norm on BF16, naive: one thread per channel, two passes in double for the
// statistics and the running update, one thread per element for y; every output rounded once.
#include <cuda_bf16.h>

__global__ void bn_train_stats(const __nv_bfloat16* x, double exponentialAverageFactor,
                               __nv_bfloat16* resultRunningMean, __nv_bfloat16* resultRunningVariance,
                               double epsilon, __nv_bfloat16* resultSaveMean,
                               __nv_bfloat16* resultSaveInvVariance, double2* stats, int n, int c,
                               long long hw) {
  int const ch = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (ch >= c) return;
  double const count = static_cast<double>(n) * static_cast<double>(hw);
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    for (long long k = 0; k < hw; ++k)
      sum += __bfloat162float(x[(static_cast<long long>(i) * c + ch) * hw + k]);
  double const mean = sum / count;
  double squares = 0.0;
  for (int i = 0; i < n; ++i)
    for (long long k = 0; k < hw; ++k) {
      double const d = __bfloat162float(x[(static_cast<long long>(i) * c + ch) * hw + k]) - mean;
      squares += d * d;
    }
  double const var = squares / count;
  double const inv = 1.0 / sqrt(var + epsilon);
  double const f = exponentialAverageFactor;
  resultSaveMean[ch] = __float2bfloat16_rn(static_cast<float>(mean));
  resultSaveInvVariance[ch] = __float2bfloat16_rn(static_cast<float>(inv));
  resultRunningMean[ch] =
      __float2bfloat16_rn(static_cast<float>((1.0 - f) * __bfloat162float(resultRunningMean[ch]) + f * mean));
  resultRunningVariance[ch] = __float2bfloat16_rn(static_cast<float>(
      (1.0 - f) * __bfloat162float(resultRunningVariance[ch]) + f * var * count / (count - 1.0)));
  stats[ch] = make_double2(mean, inv);
}

__global__ void bn_train_apply(const __nv_bfloat16* x, __nv_bfloat16* y, const __nv_bfloat16* bnScale,
                               const __nv_bfloat16* bnBias, const double2* stats, long long total, int c,
                               long long hw) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  int const ch = static_cast<int>((i / hw) % c);
  double2 const s = stats[ch];
  double const v =
      (__bfloat162float(x[i]) - s.x) * s.y * __bfloat162float(bnScale[ch]) + __bfloat162float(bnBias[ch]);
  y[i] = __float2bfloat16_rn(static_cast<float>(v));
}

extern "C" cudaError_t bn_forward_training(const __nv_bfloat16* x, __nv_bfloat16* y,
                                           const __nv_bfloat16* bnScale, const __nv_bfloat16* bnBias,
                                           double exponentialAverageFactor, __nv_bfloat16* resultRunningMean,
                                           __nv_bfloat16* resultRunningVariance, double epsilon,
                                           __nv_bfloat16* resultSaveMean,
                                           __nv_bfloat16* resultSaveInvVariance, int n, int c, int h, int w) {
  if (c <= 0) return cudaSuccess;
  double2* stats = nullptr;
  cudaError_t status = cudaMalloc(&stats, static_cast<size_t>(c) * sizeof(double2));
  if (status != cudaSuccess) return status;
  long long const hw = static_cast<long long>(h) * w;
  bn_train_stats<<<(c + 127) / 128, 128>>>(x, exponentialAverageFactor, resultRunningMean,
                                           resultRunningVariance, epsilon, resultSaveMean,
                                           resultSaveInvVariance, stats, n, c, hw);
  long long const total = static_cast<long long>(n) * c * hw;
  if (total > 0)
    bn_train_apply<<<static_cast<unsigned>((total + 255) / 256), 256>>>(x, y, bnScale, bnBias, stats, total,
                                                                        c, hw);
  status = cudaGetLastError();
  cudaFree(stats);
  return status;
}
