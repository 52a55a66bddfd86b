// One thread per output element, 64-bit indices throughout (the sizes are int64_t), zero padding.
#include <cstdint>

__global__ void conv2d_forward_kernel(const float* input, const float* kernel, float* output,
                                      int64_t batch_size, int64_t in_channels, int64_t in_height,
                                      int64_t in_width, int64_t out_channels, int64_t kernel_size,
                                      int64_t padding) {
  int64_t const out_height = in_height + 2 * padding - kernel_size + 1;
  int64_t const out_width = in_width + 2 * padding - kernel_size + 1;
  int64_t const index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= batch_size * out_channels * out_height * out_width) return;
  int64_t const x = index % out_width;
  int64_t const y = index / out_width % out_height;
  int64_t const o = index / (out_width * out_height) % out_channels;
  int64_t const b = index / (out_width * out_height * out_channels);
  float sum = 0.0f;
  for (int64_t c = 0; c < in_channels; ++c) {
    for (int64_t i = 0; i < kernel_size; ++i) {
      int64_t const yy = y + i - padding;
      if (yy < 0 || yy >= in_height) continue;
      for (int64_t j = 0; j < kernel_size; ++j) {
        int64_t const xx = x + j - padding;
        if (xx < 0 || xx >= in_width) continue;
        sum += input[((b * in_channels + c) * in_height + yy) * in_width + xx] *
               kernel[((o * in_channels + c) * kernel_size + i) * kernel_size + j];
      }
    }
  }
  output[index] = sum;
}

extern "C" void conv2d_forward(const float* input, const float* kernel, float* output, int64_t batch_size,
                               int64_t in_channels, int64_t in_height, int64_t in_width, int64_t out_channels,
                               int64_t kernel_size, int64_t padding) {
  int64_t const total = batch_size * out_channels * (in_height + 2 * padding - kernel_size + 1) *
                        (in_width + 2 * padding - kernel_size + 1);
  if (total <= 0) return;
  conv2d_forward_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(
      input, kernel, output, batch_size, in_channels, in_height, in_width, out_channels, kernel_size,
      padding);
}
