// Vendor baseline for axpby-f32: cublasSgeam computes C = alpha*A + beta*B; the vectors are viewed as
// n x 1 column-major matrices, A = x, B = y: z = alpha * x + beta * y in one pass.
// The handle is created once and bound to the per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../cublas-handle.cuh"

extern "C" void axpby(float* z, const float* x, const float* y, float alpha, float beta, int n) {
  cublasHandle_t const handle = kopt_suite::cublas_handle();
  if (handle == nullptr || n <= 0) return;
  cublasStatus_t const status =
      cublasSgeam(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, 1, &alpha, x, n, &beta, y, n, z, n);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasSgeam failed (%d)\n", status);
}
