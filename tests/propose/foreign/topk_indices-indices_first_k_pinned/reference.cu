// One thread per row keeps the 4 best (score, column) pairs so far, sorted, and inserts each score in
// turn (a later column goes after an equal score).
__global__ void top4_kernel(int* idx, float* val, const float* scores, int batch, int dim) {
  int const b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const float* row = scores + static_cast<long long>(b) * dim;
  float best[4];
  int col[4];
  int count = 0;
  for (int c = 0; c < dim; ++c) {
    float const v = row[c];
    if (count == 4 && !(v > best[3])) continue;
    int i = count < 4 ? count++ : 3;
    while (i > 0 && v > best[i - 1]) {
      best[i] = best[i - 1];
      col[i] = col[i - 1];
      --i;
    }
    best[i] = v;
    col[i] = c;
  }
  for (int i = 0; i < 4; ++i) {
    val[b * 4 + i] = best[i];
    idx[b * 4 + i] = col[i];
  }
}

extern "C" void top4(int* idx, float* val, const float* scores, int batch, int dim) {
  if (batch <= 0) return;
  top4_kernel<<<(batch + 127) / 128, 128>>>(idx, val, scores, batch, dim);
}
