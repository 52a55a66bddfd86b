// One thread per output element: the window, the channel's bias, then the ReLU.
__global__ void conv_bias_relu_kernel(const float* input, const float* weight, const float* bias,
                                      float* output, int batch, int in_channels, int out_channels, int height,
                                      int width, int kernel_size, int padding) {
  int const out_h = height + 2 * padding - kernel_size + 1;
  int const out_w = width + 2 * padding - kernel_size + 1;
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= static_cast<long long>(batch) * out_channels * out_h * out_w) return;
  int const x = static_cast<int>(index % out_w);
  int const y = static_cast<int>(index / out_w % out_h);
  int const o = static_cast<int>(index / (static_cast<long long>(out_w) * out_h) % out_channels);
  long long const b = index / (static_cast<long long>(out_w) * out_h * out_channels);
  float sum = bias[o];
  for (int c = 0; c < in_channels; ++c) {
    for (int i = 0; i < kernel_size; ++i) {
      int const yy = y + i - padding;
      if (yy < 0 || yy >= height) continue;
      for (int j = 0; j < kernel_size; ++j) {
        int const xx = x + j - padding;
        if (xx < 0 || xx >= width) continue;
        sum += input[((b * in_channels + c) * height + yy) * width + xx] *
               weight[((static_cast<long long>(o) * in_channels + c) * kernel_size + i) * kernel_size + j];
      }
    }
  }
  output[index] = sum > 0.0f ? sum : 0.0f;
}

extern "C" void conv_bias_relu_forward(const float* input, const float* weight, const float* bias,
                                       float* output, int batch, int in_channels, int out_channels,
                                       int height, int width, int kernel_size, int padding) {
  long long const total = static_cast<long long>(batch) * out_channels *
                          (height + 2 * padding - kernel_size + 1) * (width + 2 * padding - kernel_size + 1);
  if (total <= 0) return;
  conv_bias_relu_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(
      input, weight, bias, output, batch, in_channels, out_channels, height, width, kernel_size, padding);
}
