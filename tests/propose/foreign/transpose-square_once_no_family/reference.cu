// dst[c][r] = src[r][c] for an n x n row-major matrix, one thread per element (the suite's transpose).
__global__ void transpose_square_kernel(const float* src, float* dst, int n) {
  int const c = blockIdx.x * blockDim.x + threadIdx.x;
  int const r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= n || c >= n) return;
  dst[static_cast<long long>(c) * n + r] = src[static_cast<long long>(r) * n + c];
}

extern "C" void transpose_square(const float* src, float* dst, int n) {
  if (n <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((n + 15) / 16, (n + 15) / 16);
  transpose_square_kernel<<<grid, block>>>(src, dst, n);
}
