// Five passes per row, one thread per row: pass j takes the largest score not taken yet, where a pass
// takes one copy of a score (the leftmost column not taken), so repeated scores fill several places.
__global__ void top5_kernel(float* best, const float* scores, int n_cols, int n_rows) {
  int const r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n_rows) return;
  const float* row = scores + static_cast<long long>(r) * n_cols;
  int taken[5];
  for (int j = 0; j < 5; ++j) {
    int pick = -1;
    for (int c = 0; c < n_cols; ++c) {
      bool used = false;
      for (int i = 0; i < j; ++i) used = used || taken[i] == c;
      if (!used && (pick < 0 || row[c] > row[pick])) pick = c;
    }
    taken[j] = pick;
    best[r * 5 + j] = row[pick];
  }
}

extern "C" void top5(float* best, const float* scores, int n_cols, int n_rows) {
  if (n_rows <= 0 || n_cols < 5) return;
  top5_kernel<<<(n_rows + 127) / 128, 128>>>(best, scores, n_cols, n_rows);
}
