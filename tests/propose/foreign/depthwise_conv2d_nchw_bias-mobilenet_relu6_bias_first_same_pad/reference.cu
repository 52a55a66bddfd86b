// MobileNetV2's depthwise block fused: one thread per output sums the channel's ksize x ksize taps inside
// the input ("same" zero padding ksize/2) in double, adds the channel's bias and clamps to [0, 6] before
// its one rounding.
__global__ void dwconv_bias_relu6_kernel(const float* input, const float* bias, const float* weight,
                                         float* output, int c, int h, int w, int ksize, int stride, int out_h,
                                         int out_w, long long total) {
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= total) return;
  int const ox = static_cast<int>(index % out_w);
  int const oy = static_cast<int>(index / out_w % out_h);
  long long const plane = index / (static_cast<long long>(out_w) * out_h);  // b * c + ch
  int const ch = static_cast<int>(plane % c);
  int const pad = ksize / 2;
  const float* image = input + plane * h * w;
  const float* taps = weight + static_cast<long long>(ch) * ksize * ksize;
  double sum = bias[ch];
  for (int i = 0; i < ksize; ++i) {
    int const y = oy * stride - pad + i;
    if (y < 0 || y >= h) continue;
    for (int j = 0; j < ksize; ++j) {
      int const x = ox * stride - pad + j;
      if (x < 0 || x >= w) continue;
      sum += static_cast<double>(image[static_cast<long long>(y) * w + x]) * taps[i * ksize + j];
    }
  }
  output[index] = static_cast<float>(fmin(fmax(sum, 0.0), 6.0));
}

extern "C" void dwconv_bias_relu6(const float* input, const float* bias, const float* weight, float* output,
                                  int n, int c, int h, int w, int ksize, int stride) {
  int const pad = ksize / 2;
  int const out_h = (h + 2 * pad - ksize) / stride + 1;
  int const out_w = (w + 2 * pad - ksize) / stride + 1;
  long long const total = static_cast<long long>(n) * c * out_h * out_w;
  if (out_h <= 0 || out_w <= 0 || total <= 0) return;
  dwconv_bias_relu6_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(
      input, bias, weight, output, c, h, w, ksize, stride, out_h, out_w, total);
}
