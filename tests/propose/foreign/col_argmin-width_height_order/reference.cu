// One thread per image column walks down it (the first minimum wins).
__global__ void min_row_kernel(const float* img, int* row_of_min, int width, int height) {
  int const x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  int best = 0;
  for (int y = 1; y < height; ++y) {
    if (img[static_cast<long long>(y) * width + x] < img[static_cast<long long>(best) * width + x]) best = y;
  }
  row_of_min[x] = best;
}

extern "C" void min_row_per_column(const float* img, int* row_of_min, int width, int height) {
  if (width <= 0) return;
  min_row_kernel<<<(width + 127) / 128, 128>>>(img, row_of_min, width, height);
}
