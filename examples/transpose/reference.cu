// Reference for examples/transpose: one thread per element of the input in 16 x 16 blocks; thread
// (x, y) copies in[y][x] to out[x][y]. Reads are coalesced, writes are strided by a whole row: naive
// on purpose but obviously correct.

__global__ void transpose_reference_kernel(float* out, const float* in, int rows, int cols) {
  int const c = blockIdx.x * blockDim.x + threadIdx.x;
  int const r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= rows || c >= cols) return;
  out[static_cast<long long>(c) * rows + r] = in[static_cast<long long>(r) * cols + c];
}

extern "C" void transpose(float* out, const float* in, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  transpose_reference_kernel<<<grid, block>>>(out, in, rows, cols);
}
