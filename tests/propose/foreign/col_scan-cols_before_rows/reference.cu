// One thread per column keeps a double running sum and writes each prefix.
__global__ void prefix_sum_cols_kernel(float* out, const float* in, int cols, int rows) {
  int const c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  double s = 0.0;
  for (int r = 0; r < rows; ++r) {
    long long const i = static_cast<long long>(r) * cols + c;
    s += in[i];
    out[i] = static_cast<float>(s);
  }
}

extern "C" void prefix_sum_cols(float* out, const float* in, int cols, int rows) {
  if (cols <= 0) return;
  prefix_sum_cols_kernel<<<(cols + 63) / 64, 64>>>(out, in, cols, rows);
}
