// Vendor baseline for examples/sgemm: cublasSgemm in FP32 (CUBLAS_DEFAULT_MATH: no TF32).
// cuBLAS is column-major; a row-major M x N matrix is the column-major N x M transpose, so
// C^T = B^T * A^T is computed with the operands swapped and no transposition flags.
// The handle is created once and bound to the per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace {

cublasHandle_t shared_handle() {
  static cublasHandle_t const handle = [] {
    cublasHandle_t h = nullptr;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "baseline_cublas.cu: cublasCreate failed\n");
      return static_cast<cublasHandle_t>(nullptr);
    }
    cublasSetStream(h, cudaStreamPerThread);
    cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
    return h;
  }();
  return handle;
}

}  // namespace

extern "C" void sgemm(float* C, const float* A, const float* B, int M, int N, int K) {
  cublasHandle_t const handle = shared_handle();
  if (handle == nullptr || M <= 0 || N <= 0) return;
  float const alpha = 1.0f;
  float const beta = 0.0f;
  cublasStatus_t const status =
      cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta, C, N);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasSgemm failed (%d)\n", status);
}
