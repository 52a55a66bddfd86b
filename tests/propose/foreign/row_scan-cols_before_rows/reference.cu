// One thread per row keeps a double running sum and writes each prefix.
__global__ void prefix_sum_rows_kernel(float* out, const float* in, int cols, int rows) {
  int const r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  long long const base = static_cast<long long>(r) * cols;
  double s = 0.0;
  for (int c = 0; c < cols; ++c) {
    s += in[base + c];
    out[base + c] = static_cast<float>(s);
  }
}

extern "C" void prefix_sum_rows(float* out, const float* in, int cols, int rows) {
  if (rows <= 0) return;
  prefix_sum_rows_kernel<<<(rows + 63) / 64, 64>>>(out, in, cols, rows);
}
