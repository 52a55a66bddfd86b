// out = A dense, A in CSR: one thread per element of out, FP32 accumulation of the widened values in
// nonzero order, one rounding to BF16 (the suite's spmm_csr reference).
#include <cuda_bf16.h>

#include <cstdint>

__global__ void csr_spmm_bf16_kernel(const __nv_bfloat16* dense, const int* indptr, const int* indices,
                                     const __nv_bfloat16* data, __nv_bfloat16* out, int64_t n_rows,
                                     int64_t n_dense_cols) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n_rows * n_dense_cols) return;
  int64_t const row = i / n_dense_cols;
  int64_t const col = i % n_dense_cols;
  float sum = 0.0f;
  for (int k = indptr[row]; k < indptr[row + 1]; ++k)
    sum += __bfloat162float(data[k]) * __bfloat162float(dense[indices[k] * n_dense_cols + col]);
  out[i] = __float2bfloat16_rn(sum);
}

extern "C" void csr_spmm_bf16(const __nv_bfloat16* dense, const int* indptr, const int* indices,
                              const __nv_bfloat16* data, __nv_bfloat16* out, int64_t n_rows, int64_t n_cols,
                              int64_t n_dense_cols, int64_t nnz) {
  (void)n_cols;
  (void)nnz;
  int64_t const outputs = n_rows * n_dense_cols;
  if (outputs <= 0) return;
  csr_spmm_bf16_kernel<<<static_cast<unsigned>((outputs + 255) / 256), 256>>>(dense, indptr, indices, data,
                                                                              out, n_rows, n_dense_cols);
}
