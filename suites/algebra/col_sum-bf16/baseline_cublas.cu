// Vendor baseline for col_sum-bf16: cublasGemmEx with n = 1 against a ones vector, BF16 data, FP32
// compute (CUBLAS_COMPUTE_32F). The row-major rows x cols matrix is the column-major cols x rows matrix
// (leading dimension cols), so the column sums (cols x 1) = that matrix times a rows-long ones vector
// (../col_sum-common.cuh: filled once, grown never per call) are an NN GEMM with m = cols, n = 1,
// k = rows. The handle is created once and bound to the per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../col_sum-common.cuh"
#include "../cublas-handle.cuh"

extern "C" void col_sum(__nv_bfloat16* out, const __nv_bfloat16* in, int rows, int cols) {
  cublasHandle_t const handle = kopt_suite::cublas_handle();
  if (handle == nullptr || rows <= 0 || cols <= 0) return;
  __nv_bfloat16 const* const ones = kopt_suite::ones_vector<__nv_bfloat16>(rows);
  if (ones == nullptr) return;
  float const alpha = 1.0f;
  float const beta = 0.0f;
  cublasStatus_t const status =
      cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, cols, 1, rows, &alpha, in, CUDA_R_16BF, cols, ones,
                   CUDA_R_16BF, rows, &beta, out, CUDA_R_16BF, cols, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasGemmEx failed (%d)\n", status);
}
