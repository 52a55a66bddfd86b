// One thread per output element: the strided, padded window, the channel's bias, then the ReLU.
__global__ void conv_strided_relu_kernel(const float* input, const float* weight, const float* bias,
                                         float* output, int batch, int in_channels, int out_channels,
                                         int height, int width, int kernel_h, int kernel_w, int stride_h,
                                         int stride_w, int pad_h, int pad_w) {
  int const out_h = (height + 2 * pad_h - kernel_h) / stride_h + 1;
  int const out_w = (width + 2 * pad_w - kernel_w) / stride_w + 1;
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= static_cast<long long>(batch) * out_channels * out_h * out_w) return;
  int const x = static_cast<int>(index % out_w);
  int const y = static_cast<int>(index / out_w % out_h);
  int const o = static_cast<int>(index / (static_cast<long long>(out_w) * out_h) % out_channels);
  long long const b = index / (static_cast<long long>(out_w) * out_h * out_channels);
  float sum = bias[o];
  for (int c = 0; c < in_channels; ++c) {
    for (int i = 0; i < kernel_h; ++i) {
      int const yy = y * stride_h - pad_h + i;
      if (yy < 0 || yy >= height) continue;
      for (int j = 0; j < kernel_w; ++j) {
        int const xx = x * stride_w - pad_w + j;
        if (xx < 0 || xx >= width) continue;
        sum += input[((b * in_channels + c) * height + yy) * width + xx] *
               weight[((static_cast<long long>(o) * in_channels + c) * kernel_h + i) * kernel_w + j];
      }
    }
  }
  output[index] = sum > 0.0f ? sum : 0.0f;
}

extern "C" void conv_strided_relu_forward(const float* input, const float* weight, const float* bias,
                                          float* output, int batch, int in_channels, int out_channels,
                                          int height, int width, int kernel_h, int kernel_w, int stride_h,
                                          int stride_w, int pad_h, int pad_w) {
  long long const total = static_cast<long long>(batch) * out_channels *
                          ((height + 2 * pad_h - kernel_h) / stride_h + 1) *
                          ((width + 2 * pad_w - kernel_w) / stride_w + 1);
  if (total <= 0) return;
  conv_strided_relu_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(
      input, weight, bias, output, batch, in_channels, out_channels, height, width, kernel_h, kernel_w,
      stride_h, stride_w, pad_h, pad_w);
}
