// A depthwise convolution for the NCHW data format, after TensorFlow's DepthwiseConv2dGPUKernelNCHW: one
// thread per output, the channel's filter_rows x filter_cols taps inside the input summed in FP32 (zero
// padding), row by row.
__global__ void depthwise_conv2d_native_nchw_kernel(const float* filter, const float* input, float* output,
                                                    int in_depth, int in_rows, int in_cols, int filter_rows,
                                                    int filter_cols, int stride, int pad_rows, int pad_cols,
                                                    int out_rows, int out_cols, long long total) {
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= total) return;
  int const out_c = static_cast<int>(index % out_cols);
  int const out_r = static_cast<int>(index / out_cols % out_rows);
  long long const plane = index / (static_cast<long long>(out_cols) * out_rows);  // b * in_depth + d
  int const d = static_cast<int>(plane % in_depth);
  const float* image = input + plane * in_rows * in_cols;
  const float* taps = filter + static_cast<long long>(d) * filter_rows * filter_cols;
  float sum = 0.0f;
  for (int i = 0; i < filter_rows; ++i) {
    int const r = out_r * stride - pad_rows + i;
    if (r < 0 || r >= in_rows) continue;
    for (int j = 0; j < filter_cols; ++j) {
      int const c = out_c * stride - pad_cols + j;
      if (c < 0 || c >= in_cols) continue;
      sum += image[static_cast<long long>(r) * in_cols + c] * taps[i * filter_cols + j];
    }
  }
  output[index] = sum;
}

extern "C" void depthwise_conv2d_native_nchw(const float* filter, const float* input, float* output,
                                             int batch, int in_depth, int in_rows, int in_cols,
                                             int filter_rows, int filter_cols, int stride, int pad_rows,
                                             int pad_cols) {
  int const out_rows = (in_rows + 2 * pad_rows - filter_rows) / stride + 1;
  int const out_cols = (in_cols + 2 * pad_cols - filter_cols) / stride + 1;
  long long const total = static_cast<long long>(batch) * in_depth * out_rows * out_cols;
  if (out_rows <= 0 || out_cols <= 0 || total <= 0) return;
  depthwise_conv2d_native_nchw_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(
      filter, input, output, in_depth, in_rows, in_cols, filter_rows, filter_cols, stride, pad_rows, pad_cols,
      out_rows, out_cols, total);
}
