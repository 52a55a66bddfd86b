// One thread per row scans it in order (the first maximum wins).
__global__ void argmax_rows_kernel(const float* input, int* output, int cols, int rows) {
  int const r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* row = input + static_cast<long long>(r) * cols;
  int best = 0;
  for (int c = 1; c < cols; ++c) {
    if (row[c] > row[best]) best = c;
  }
  output[r] = best;
}

extern "C" void argmax_rows(const float* input, int* output, int cols, int rows) {
  if (rows <= 0) return;
  argmax_rows_kernel<<<(rows + 127) / 128, 128>>>(input, output, cols, rows);
}
