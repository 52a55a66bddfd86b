// Same-size zero-padded cross-correlation over a square image: one thread per output, FP32 sums in
// (i, j) tap order.
__global__ void conv_square_kernel(float* out, const float* in, const float* w, int n, int k) {
  int const x = blockIdx.x * blockDim.x + threadIdx.x;
  int const y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i) {
    int const yy = y + i - k / 2;
    if (yy < 0 || yy >= n) continue;
    for (int j = 0; j < k; ++j) {
      int const xx = x + j - k / 2;
      if (xx < 0 || xx >= n) continue;
      sum += w[i * k + j] * in[static_cast<long long>(yy) * n + xx];
    }
  }
  out[static_cast<long long>(y) * n + x] = sum;
}

extern "C" void conv_square(float* out, const float* in, const float* w, int n, int k) {
  if (n <= 0 || k <= 0) return;
  dim3 const block(32, 8);
  dim3 const grid((n + 31) / 32, (n + 7) / 8);
  conv_square_kernel<<<grid, block>>>(out, in, w, n, k);
}
