// y = A x, A in row-sorted COO: one thread per row finds its first nonzero by binary search, sums its run
// in FP32 and rounds once (the suite's spmv_coo reference).
#include <cstdint>

__global__ void spmv_coo_f32_kernel(const float* val, const int* row, const int* col, int nnz, const float* x,
                                    int n_rows, float* y) {
  int const r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n_rows) return;
  int lo = 0;
  int hi = nnz;
  while (lo < hi) {
    int const mid = lo + (hi - lo) / 2;
    if (row[mid] < r) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  float sum = 0.0f;
  for (int k = lo; k < nnz && row[k] == r; ++k) sum += val[k] * x[col[k]];
  y[r] = sum;
}

extern "C" void spmv_coo_f32(const float* val, const int* row, const int* col, int64_t nnz, const float* x,
                             int64_t n_rows, int64_t n_cols, float* y) {
  (void)n_cols;
  if (n_rows <= 0) return;
  int const rows = static_cast<int>(n_rows);
  spmv_coo_f32_kernel<<<(rows + 255) / 256, 256>>>(val, row, col, static_cast<int>(nnz), x, rows, y);
}
