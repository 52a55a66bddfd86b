// nn.BatchNorm2d's training forward in BF16, the output alone: one block of 256 threads per channel sums
// the channel's values and then its squared deviations in double (a shared-memory tree), keeping the
// channel's mean and 1/sqrt(biased variance + eps) in a device array; then one thread per element applies
// them with the channel's weight and bias in FP32, one rounding per output.
#include <cuda_bf16.h>

#include <cstddef>

constexpr int kThreads = 256;

__device__ float2 g_channel_stats[1 << 16];  // (mean, rstd) per channel, up to 65536 channels

// The sum of every thread's value over the block; all threads get it.
__device__ double block_sum(double value, double* partial) {
  partial[threadIdx.x] = value;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  double const total = partial[0];
  __syncthreads();
  return total;
}

__global__ void bn_train_stats_bf16(const __nv_bfloat16* input, size_t batch, size_t channels, size_t plane,
                                    float eps) {
  __shared__ double partial[kThreads];
  size_t const c = blockIdx.x;
  size_t const count = batch * plane;
  double sum = 0.0;
  for (size_t i = threadIdx.x; i < count; i += kThreads) {
    sum += __bfloat162float(input[(i / plane * channels + c) * plane + i % plane]);
  }
  double const mean = block_sum(sum, partial) / static_cast<double>(count);
  double squares = 0.0;
  for (size_t i = threadIdx.x; i < count; i += kThreads) {
    double const d = __bfloat162float(input[(i / plane * channels + c) * plane + i % plane]) - mean;
    squares += d * d;
  }
  double const var = block_sum(squares, partial) / static_cast<double>(count);
  if (threadIdx.x == 0) {
    g_channel_stats[c] = make_float2(static_cast<float>(mean), static_cast<float>(1.0 / sqrt(var + eps)));
  }
}

__global__ void bn_train_apply_bf16(const __nv_bfloat16* input, const __nv_bfloat16* weight,
                                    const __nv_bfloat16* bias, __nv_bfloat16* output, size_t channels,
                                    size_t plane, size_t total) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  size_t const c = i / plane % channels;
  float2 const s = g_channel_stats[c];
  output[i] = __float2bfloat16_rn((__bfloat162float(input[i]) - s.x) * s.y * __bfloat162float(weight[c]) +
                                  __bfloat162float(bias[c]));
}

extern "C" void batch_norm2d_train_forward_bf16(const __nv_bfloat16* input, const __nv_bfloat16* weight,
                                                const __nv_bfloat16* bias, __nv_bfloat16* output,
                                                size_t batch, size_t channels, size_t height, size_t width,
                                                float eps) {
  size_t const plane = height * width;
  if (batch == 0 || channels == 0 || plane == 0 || channels > (1 << 16)) return;
  bn_train_stats_bf16<<<static_cast<unsigned>(channels), kThreads>>>(input, batch, channels, plane, eps);
  size_t const total = batch * channels * plane;
  bn_train_apply_bf16<<<static_cast<unsigned>((total + 255) / 256), 256>>>(input, weight, bias, output,
                                                                           channels, plane, total);
}
