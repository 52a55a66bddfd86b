// Same-size zero-padded cross-correlation (the suite's conv1d reference): one thread per output, FP32
// accumulation in tap order, one rounding.
#include <cstddef>

__global__ void conv1d_layer_kernel(float* output, const float* input, const float* kernel,
                                    long long input_size, long long kernel_size) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= input_size) return;
  long long const first = i - kernel_size / 2;
  float sum = 0.0f;
  for (long long k = 0; k < kernel_size; ++k) {
    long long const j = first + k;
    if (j < 0 || j >= input_size) continue;
    sum += kernel[k] * input[j];
  }
  output[i] = sum;
}

extern "C" void conv1d_layer(float* output, const float* input, const float* kernel, size_t input_size,
                             size_t kernel_size) {
  if (input_size == 0) return;
  conv1d_layer_kernel<<<static_cast<unsigned>((input_size + 255) / 256), 256>>>(
      output, input, kernel, static_cast<long long>(input_size), static_cast<long long>(kernel_size));
}
