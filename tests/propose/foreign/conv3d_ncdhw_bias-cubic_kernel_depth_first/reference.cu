// A video model's 3-D convolution as it is often hand-written: one thread per output voxel, a cubic kernel,
// one stride and one padding for all three axes, the bias added and a ReLU applied in the same kernel.
__global__ void conv3d_relu_kernel(const float* input, const float* weight, const float* bias, float* output,
                                   int batch, int in_channels, int out_channels, int depth, int height,
                                   int width, int kernel_size, int stride, int padding, int out_d, int out_h,
                                   int out_w) {
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  long long const total = static_cast<long long>(batch) * out_channels * out_d * out_h * out_w;
  if (index >= total) return;
  int const ox = static_cast<int>(index % out_w);
  int const oy = static_cast<int>(index / out_w % out_h);
  int const oz = static_cast<int>(index / (static_cast<long long>(out_w) * out_h) % out_d);
  int const o = static_cast<int>(index / (static_cast<long long>(out_w) * out_h * out_d) % out_channels);
  long long const b = index / (static_cast<long long>(out_w) * out_h * out_d * out_channels);
  float sum = bias[o];
  for (int c = 0; c < in_channels; ++c) {
    for (int i = 0; i < kernel_size; ++i) {
      int const z = oz * stride - padding + i;
      if (z < 0 || z >= depth) continue;
      for (int j = 0; j < kernel_size; ++j) {
        int const y = oy * stride - padding + j;
        if (y < 0 || y >= height) continue;
        for (int k = 0; k < kernel_size; ++k) {
          int const x = ox * stride - padding + k;
          if (x < 0 || x >= width) continue;
          sum +=
              input[(((b * in_channels + c) * depth + z) * height + y) * width + x] *
              weight[(((static_cast<long long>(o) * in_channels + c) * kernel_size + i) * kernel_size + j) *
                         kernel_size +
                     k];
        }
      }
    }
  }
  output[index] = sum > 0.0f ? sum : 0.0f;
}

extern "C" void conv3d_relu_forward(const float* input, const float* weight, const float* bias, float* output,
                                    int batch, int in_channels, int out_channels, int depth, int height,
                                    int width, int kernel_size, int stride, int padding) {
  int const out_d = (depth + 2 * padding - kernel_size) / stride + 1;
  int const out_h = (height + 2 * padding - kernel_size) / stride + 1;
  int const out_w = (width + 2 * padding - kernel_size) / stride + 1;
  long long const total = static_cast<long long>(batch) * out_channels * out_d * out_h * out_w;
  if (total <= 0) return;
  conv3d_relu_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(
      input, weight, bias, output, batch, in_channels, out_channels, depth, height, width, kernel_size,
      stride, padding, out_d, out_h, out_w);
}
