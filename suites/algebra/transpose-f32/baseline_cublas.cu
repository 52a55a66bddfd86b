// Vendor baseline for transpose-f32: cublasSgeam, C = alpha*op(A) + beta*op(B). cuBLAS is
// column-major: the row-major rows x cols input is the column-major cols x rows matrix (leading
// dimension cols) and the row-major cols x rows output the column-major rows x cols matrix (leading
// dimension rows), so out = op_T(in) with alpha = 1, beta = 0 and B = A (finite inputs: 0*B adds nothing).
// The handle is created once and bound to the per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../cublas-handle.cuh"

extern "C" void transpose(float* out, const float* in, int rows, int cols) {
  cublasHandle_t const handle = kopt_suite::cublas_handle();
  if (handle == nullptr || rows <= 0 || cols <= 0) return;
  float const alpha = 1.0f;
  float const beta = 0.0f;
  cublasStatus_t const status =
      cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_T, rows, cols, &alpha, in, cols, &beta, in, cols, out, rows);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasSgeam failed (%d)\n", status);
}
