// sums[y] = sum of row y (the suite's row_sum reference): one thread per row, a double sum, one rounding.
__global__ void sum_rows_kernel(const float* image, int height, int width, float* sums) {
  int const y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= height) return;
  const float* row = image + static_cast<long long>(y) * width;
  double sum = 0.0;
  for (int x = 0; x < width; ++x) sum += static_cast<double>(row[x]);
  sums[y] = static_cast<float>(sum);
}

extern "C" void sum_rows(const float* image, int height, int width, float* sums) {
  if (height <= 0) return;
  sum_rows_kernel<<<(height + 255) / 256, 256>>>(image, height, width < 0 ? 0 : width, sums);
}
