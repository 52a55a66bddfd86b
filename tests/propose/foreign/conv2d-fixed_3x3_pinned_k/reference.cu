// Same-size zero-padded 3 x 3 cross-correlation: one thread per output, FP32 sums in (i, j) tap order.
__global__ void filter3x3_kernel(float* dst, const float* src, const float* taps, int height, int width) {
  int const x = blockIdx.x * blockDim.x + threadIdx.x;
  int const y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  for (int i = 0; i < 3; ++i) {
    int const yy = y + i - 1;
    if (yy < 0 || yy >= height) continue;
    for (int j = 0; j < 3; ++j) {
      int const xx = x + j - 1;
      if (xx < 0 || xx >= width) continue;
      sum += taps[3 * i + j] * src[static_cast<long long>(yy) * width + xx];
    }
  }
  dst[static_cast<long long>(y) * width + x] = sum;
}

extern "C" void filter3x3(float* dst, const float* src, const float* taps, int height, int width) {
  if (height <= 0 || width <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((width + 15) / 16, (height + 15) / 16);
  filter3x3_kernel<<<grid, block>>>(dst, src, taps, height, width);
}
