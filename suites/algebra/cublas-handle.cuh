// The cuBLAS handle of a suites/algebra baseline: created once, bound to the per-thread default stream kopt
// times on, default math mode (no TF32 for FP32), and the pointer mode the baseline's scalars use.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace kopt_suite {

// nullptr (after printing why) when cuBLAS cannot be initialised.
inline cublasHandle_t cublas_handle(cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST) {
  static cublasHandle_t const handle = [pointer_mode] {
    cublasHandle_t h = nullptr;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "baseline_cublas.cu: cublasCreate failed\n");
      return static_cast<cublasHandle_t>(nullptr);
    }
    cublasSetStream(h, cudaStreamPerThread);
    cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
    cublasSetPointerMode(h, pointer_mode);
    return h;
  }();
  return handle;
}

}  // namespace kopt_suite
