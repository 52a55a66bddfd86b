// y += A x, A in COO: one thread per nonzero adds val * x[col] into y[row] with atomicAdd.
__global__ void coo_spmv_add_kernel(int nnz, const int* rows, const int* cols, const float* vals,
                                    const float* x, float* y) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nnz) atomicAdd(&y[rows[i]], vals[i] * x[cols[i]]);
}

extern "C" void coo_spmv_add(int m, int k, int nnz, const int* rows, const int* cols, const float* vals,
                             const float* x, float* y) {
  (void)m;
  (void)k;
  if (nnz <= 0) return;
  coo_spmv_add_kernel<<<(nnz + 255) / 256, 256>>>(nnz, rows, cols, vals, x, y);
}
