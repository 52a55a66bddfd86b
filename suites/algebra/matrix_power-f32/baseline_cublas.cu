// Vendor baseline for matrix_power-f32: the squaring schedule of ../matrix_power-common.cuh with every
// product a cublasSgemm in FP32 (CUBLAS_DEFAULT_MATH: no TF32). The first product reads A, intermediate
// powers go to two n x n FP32 buffers used in turn (grow-only), the last product writes out.
// cuBLAS is column-major; a row-major n x n product C = X * Y is the column-major C^T = Y^T * X^T, so the
// operands are passed swapped with no transposition flags.
// The handle is created once and bound to the per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../cublas-handle.cuh"
#include "../matrix_power-common.cuh"

extern "C" void matrix_power(float* out, const float* A, int n, int p) {
  cublasHandle_t const handle = kopt_suite::cublas_handle();
  if (handle == nullptr || n <= 0) return;
  size_t const count = static_cast<size_t>(n) * n;
  if (p <= 1) {  // the identity (p <= 0) or A itself: no product
    matrix_power_reference(out, A, n, p);
    return;
  }
  static void* buffer = nullptr;
  static size_t capacity = 0;
  auto* buffers = static_cast<float*>(matrix_power_suite::grow(buffer, capacity, 2 * count * sizeof(float)));
  if (buffers == nullptr) return;
  float const alpha = 1.0f;
  float const beta = 0.0f;
  const float* power = A;
  int next = 0;
  matrix_power_suite::for_each_squaring_product(p, [&](bool square, bool last) {
    float* dst = last ? out : buffers + next * count;
    const float* right = square ? power : A;
    cublasStatus_t const status =
        cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, right, n, power, n, &beta, dst, n);
    if (status != CUBLAS_STATUS_SUCCESS)
      std::fprintf(stderr, "baseline_cublas.cu: cublasSgemm failed (%d)\n", status);
    power = dst;
    next ^= 1;
  });
}
