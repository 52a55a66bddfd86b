// A decoder's "deconvolution" as it is often hand-written: one thread per input element scatters its
// products into the output with atomicAdd, after the output is cleared.
__global__ void deconv2d_scatter_kernel(const float* input, const float* weight, float* output, int batch,
                                        int in_channels, int out_channels, int in_h, int in_w,
                                        int kernel_size, int stride, int padding, int out_h, int out_w) {
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= static_cast<long long>(batch) * in_channels * in_h * in_w) return;
  int const ix = static_cast<int>(index % in_w);
  int const iy = static_cast<int>(index / in_w % in_h);
  int const c = static_cast<int>(index / (static_cast<long long>(in_w) * in_h) % in_channels);
  long long const b = index / (static_cast<long long>(in_w) * in_h * in_channels);
  float const v = input[index];
  for (int o = 0; o < out_channels; ++o) {
    for (int i = 0; i < kernel_size; ++i) {
      int const y = iy * stride - padding + i;
      if (y < 0 || y >= out_h) continue;
      for (int j = 0; j < kernel_size; ++j) {
        int const x = ix * stride - padding + j;
        if (x < 0 || x >= out_w) continue;
        float const w =
            weight[((static_cast<long long>(c) * out_channels + o) * kernel_size + i) * kernel_size + j];
        atomicAdd(&output[((b * out_channels + o) * out_h + y) * out_w + x], v * w);
      }
    }
  }
}

extern "C" void deconv2d_forward(const float* input, const float* weight, float* output, int batch,
                                 int in_channels, int out_channels, int in_h, int in_w, int kernel_size,
                                 int stride, int padding, int output_padding) {
  int const out_h = (in_h - 1) * stride - 2 * padding + kernel_size + output_padding;
  int const out_w = (in_w - 1) * stride - 2 * padding + kernel_size + output_padding;
  if (batch <= 0 || out_channels <= 0 || out_h <= 0 || out_w <= 0) return;
  cudaMemsetAsync(output, 0, sizeof(float) * static_cast<size_t>(batch) * out_channels * out_h * out_w);
  long long const inputs = static_cast<long long>(batch) * in_channels * in_h * in_w;
  if (inputs <= 0) return;
  deconv2d_scatter_kernel<<<static_cast<unsigned>((inputs + 255) / 256), 256>>>(
      input, weight, output, batch, in_channels, out_channels, in_h, in_w, kernel_size, stride, padding,
      out_h, out_w);
}
