// One thread per row; k passes, each taking the largest value not taken yet (marked in a per-row bit set
// kept in the output's index list: a column is taken when an earlier pass chose it).
#include <cstddef>

__global__ void topk_rows_kernel(const float* in, size_t cols, size_t rows, size_t k, float* values,
                                 int* indices) {
  size_t const r = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* row = in + r * cols;
  for (size_t j = 0; j < k; ++j) {
    size_t best = cols;
    for (size_t c = 0; c < cols; ++c) {
      bool taken = false;
      for (size_t i = 0; i < j && !taken; ++i) taken = indices[r * k + i] == static_cast<int>(c);
      if (!taken && (best == cols || row[c] > row[best])) best = c;
    }
    values[r * k + j] = row[best];
    indices[r * k + j] = static_cast<int>(best);
  }
}

extern "C" void topk_rows(const float* in, size_t cols, size_t rows, size_t k, float* values, int* indices) {
  if (rows == 0) return;
  topk_rows_kernel<<<static_cast<unsigned>((rows + 63) / 64), 64>>>(in, cols, rows, k, values, indices);
}
