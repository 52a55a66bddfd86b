// 2x2 average pooling with stride 2 (the suite's pool2d reference with K = S = 2): one thread per output,
// the four values summed in row order in FP32, then divided by 4.
__global__ void downsample2x_avg_kernel(float* out, const float* in, int batch, int channels, int rows,
                                        int cols) {
  int const out_rows = rows / 2;
  int const out_cols = cols / 2;
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= static_cast<long long>(batch) * channels * out_rows * out_cols) return;
  int const x = static_cast<int>(index % out_cols);
  int const y = static_cast<int>(index / out_cols % out_rows);
  long long const plane = index / (static_cast<long long>(out_cols) * out_rows);
  const float* top = in + (plane * rows + 2LL * y) * cols + 2 * x;
  const float* bottom = top + cols;
  float const sum = top[0] + top[1] + bottom[0] + bottom[1];
  out[index] = sum / 4.0f;
}

extern "C" void downsample2x_avg(float* out, const float* in, int batch, int channels, int rows, int cols) {
  long long const total = static_cast<long long>(batch) * channels * (rows / 2) * (cols / 2);
  if (total <= 0) return;
  downsample2x_avg_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(out, in, batch, channels, rows,
                                                                               cols);
}
