// Vendor baseline for axpy-f32: cublasSgeam computes C = alpha*A + beta*B; the vectors are viewed as
// n x 1 column-major matrices, A = x, B = y, beta = 1: z = alpha * x + y in one pass.
// The handle is created once and bound to the per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../cublas-handle.cuh"

extern "C" void axpy(float* z, const float* x, const float* y, float alpha, int n) {
  cublasHandle_t const handle = kopt_suite::cublas_handle();
  if (handle == nullptr || n <= 0) return;
  float const one = 1.0f;
  cublasStatus_t const status =
      cublasSgeam(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, 1, &alpha, x, n, &one, y, n, z, n);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasSgeam failed (%d)\n", status);
}
