// One thread per column (96 of them) walks down it (the first minimum wins).
constexpr int kCols = 96;

__global__ void argmin_over_rows_kernel(const float* data, int* out, int rows) {
  int const c = threadIdx.x;
  if (c >= kCols) return;
  int best = 0;
  float best_value = data[c];
  for (int r = 1; r < rows; ++r) {
    float const v = data[static_cast<long long>(r) * kCols + c];
    if (v < best_value) {
      best = r;
      best_value = v;
    }
  }
  out[c] = best;
}

extern "C" void argmin_over_rows(const float* data, int* out, int rows) {
  argmin_over_rows_kernel<<<1, 128>>>(data, out, rows);
}
