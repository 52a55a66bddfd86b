// Vendor baseline for col_sum-f32: cublasSgemv in FP32 against a ones vector. cuBLAS is column-major: the
// row-major rows x cols matrix is the column-major cols x rows matrix (leading dimension cols), so the
// column sums out = A^T ones are cublasSgemv(CUBLAS_OP_N) of that cols x rows matrix with a rows-long
// ones vector (../col_sum-common.cuh: filled once, grown never per call). The handle is created once and
// bound to the per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../col_sum-common.cuh"
#include "../cublas-handle.cuh"

extern "C" void col_sum(float* out, const float* in, int rows, int cols) {
  cublasHandle_t const handle = kopt_suite::cublas_handle();
  if (handle == nullptr || rows <= 0 || cols <= 0) return;
  float const* const ones = kopt_suite::ones_vector<float>(rows);
  if (ones == nullptr) return;
  float const alpha = 1.0f;
  float const beta = 0.0f;
  cublasStatus_t const status =
      cublasSgemv(handle, CUBLAS_OP_N, cols, rows, &alpha, in, cols, ones, 1, &beta, out, 1);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasSgemv failed (%d)\n", status);
}
