// nn.MaxPool3d's forward (floor mode): one thread per output, the window walked in (depth, row, column)
// order with every axis's stride, padding and dilation, taps outside the input skipped (the padding is
// -inf), the maximum in FP32 (exact).
#include <math.h>

#include <cstdint>

__global__ void max_pool3d_ext_kernel(const float* input, int64_t depth, int64_t height, int64_t width,
                                      int64_t out_d, int64_t out_h, int64_t out_w, int64_t kernel_d,
                                      int64_t kernel_h, int64_t kernel_w, int64_t stride_d, int64_t stride_h,
                                      int64_t stride_w, int64_t pad_d, int64_t pad_h, int64_t pad_w,
                                      int64_t dilation_d, int64_t dilation_h, int64_t dilation_w,
                                      int64_t total, float* output) {
  int64_t const index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= total) return;
  int64_t const ox = index % out_w;
  int64_t const oy = index / out_w % out_h;
  int64_t const oz = index / (out_w * out_h) % out_d;
  int64_t const slice = index / (out_w * out_h * out_d);  // b * channels + ch
  const float* volume = input + slice * depth * height * width;
  float best = -INFINITY;
  for (int64_t i = 0; i < kernel_d; ++i) {
    int64_t const z = oz * stride_d - pad_d + i * dilation_d;
    if (z < 0 || z >= depth) continue;
    for (int64_t j = 0; j < kernel_h; ++j) {
      int64_t const y = oy * stride_h - pad_h + j * dilation_h;
      if (y < 0 || y >= height) continue;
      for (int64_t k = 0; k < kernel_w; ++k) {
        int64_t const x = ox * stride_w - pad_w + k * dilation_w;
        if (x < 0 || x >= width) continue;
        best = fmaxf(best, volume[(z * height + y) * width + x]);
      }
    }
  }
  output[index] = best;
}

extern "C" void max_pool3d_ext_forward(const float* input, int64_t batch, int64_t channels, int64_t depth,
                                       int64_t height, int64_t width, int64_t kernel_d, int64_t kernel_h,
                                       int64_t kernel_w, int64_t stride_d, int64_t stride_h, int64_t stride_w,
                                       int64_t pad_d, int64_t pad_h, int64_t pad_w, int64_t dilation_d,
                                       int64_t dilation_h, int64_t dilation_w, float* output) {
  int64_t const out_d = (depth + 2 * pad_d - dilation_d * (kernel_d - 1) - 1) / stride_d + 1;
  int64_t const out_h = (height + 2 * pad_h - dilation_h * (kernel_h - 1) - 1) / stride_h + 1;
  int64_t const out_w = (width + 2 * pad_w - dilation_w * (kernel_w - 1) - 1) / stride_w + 1;
  int64_t const total = batch * channels * out_d * out_h * out_w;
  if (out_d <= 0 || out_h <= 0 || out_w <= 0 || total <= 0) return;
  max_pool3d_ext_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(
      input, depth, height, width, out_d, out_h, out_w, kernel_d, kernel_h, kernel_w, stride_d, stride_h,
      stride_w, pad_d, pad_h, pad_w, dilation_d, dilation_h, dilation_w, total, output);
}
