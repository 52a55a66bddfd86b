// out[c] = maximum of column c: one thread per column, comparisons only (exact).
__global__ void col_max_kernel(float* out, const float* in, int cols, int rows) {
  int const c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float best = in[c];
  for (long long r = 1; r < rows; ++r) best = fmaxf(best, in[r * cols + c]);
  out[c] = best;
}

extern "C" void col_max(float* out, const float* in, int cols, int rows) {
  if (rows <= 0 || cols <= 0) return;
  col_max_kernel<<<(cols + 127) / 128, 128>>>(out, in, cols, rows);
}
