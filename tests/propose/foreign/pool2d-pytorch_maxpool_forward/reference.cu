// Max pooling without padding (the suite's pool2d reference): one thread per output, the window read in
// row order, the maximum in FP32.
#include <math.h>

__global__ void maxpool2d_forward_kernel(const float* input, float* output, int batch, int channels,
                                         int height, int width, int kernel_size, int stride) {
  int const out_h = (height - kernel_size) / stride + 1;
  int const out_w = (width - kernel_size) / stride + 1;
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= static_cast<long long>(batch) * channels * out_h * out_w) return;
  int const x = static_cast<int>(index % out_w);
  int const y = static_cast<int>(index / out_w % out_h);
  long long const plane = index / (static_cast<long long>(out_w) * out_h);
  const float* window = input + (plane * height + static_cast<long long>(y) * stride) * width + x * stride;
  float best = -INFINITY;
  for (int i = 0; i < kernel_size; ++i)
    for (int j = 0; j < kernel_size; ++j) best = fmaxf(best, window[static_cast<long long>(i) * width + j]);
  output[index] = best;
}

extern "C" void maxpool2d_forward(const float* input, float* output, int batch, int channels, int height,
                                  int width, int kernel_size, int stride) {
  long long const total = static_cast<long long>(batch) * channels * ((height - kernel_size) / stride + 1) *
                          ((width - kernel_size) / stride + 1);
  if (total <= 0) return;
  maxpool2d_forward_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(
      input, output, batch, channels, height, width, kernel_size, stride);
}
