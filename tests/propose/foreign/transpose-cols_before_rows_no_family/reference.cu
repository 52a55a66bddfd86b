// output[c][r] = input[r][c] for a num_rows x num_cols row-major matrix, one thread per element (the
// suite's transpose).
__global__ void transpose_matrix_kernel(const float* input, int num_cols, int num_rows, float* output) {
  int const c = blockIdx.x * blockDim.x + threadIdx.x;
  int const r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= num_rows || c >= num_cols) return;
  output[static_cast<long long>(c) * num_rows + r] = input[static_cast<long long>(r) * num_cols + c];
}

extern "C" void transpose_matrix(const float* input, int num_cols, int num_rows, float* output) {
  if (num_rows <= 0 || num_cols <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((num_cols + 15) / 16, (num_rows + 15) / 16);
  transpose_matrix_kernel<<<grid, block>>>(input, num_cols, num_rows, output);
}
