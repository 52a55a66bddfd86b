// Reference for spmm_csr-f32: C = A B with A in CSR, one thread per element of C, FP32 accumulation
// (../spmm_csr-common.cuh).
#include "../spmm_csr-common.cuh"

extern "C" void spmm_csr(float* C, const int* row_ptr, const int* col_idx, const float* vals, const float* B,
                         int M, int K, int N, int NNZ) {
  (void)K;
  (void)NNZ;
  spmm_csr_reference(C, row_ptr, col_idx, vals, B, M, N);
}
