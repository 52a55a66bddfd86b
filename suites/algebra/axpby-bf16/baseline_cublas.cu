// Vendor baseline for axpby-bf16: cuBLAS has no BF16 geam and no out-of-place axpby, so y is copied into z
// on the stream, cublasScalEx scales z by beta and cublasAxpyEx adds alpha * x into it, with BF16 data and
// FP32 scalars and arithmetic (CUDA_R_32F execution type). Three passes: 14 bytes moved per element where
// 6 suffice, and z is rounded to BF16 twice (after the scale and after the add).
// The handle is created once and bound to the per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../cublas-handle.cuh"

extern "C" void axpby(__nv_bfloat16* z, const __nv_bfloat16* x, const __nv_bfloat16* y, float alpha,
                      float beta, int n) {
  cublasHandle_t const handle = kopt_suite::cublas_handle();
  if (handle == nullptr || n <= 0) return;
  cudaStream_t stream = nullptr;
  cublasGetStream(handle, &stream);
  cudaMemcpyAsync(z, y, sizeof(__nv_bfloat16) * static_cast<size_t>(n), cudaMemcpyDeviceToDevice, stream);
  cublasStatus_t status = cublasScalEx(handle, n, &beta, CUDA_R_32F, z, CUDA_R_16BF, 1, CUDA_R_32F);
  if (status == CUBLAS_STATUS_SUCCESS)
    status = cublasAxpyEx(handle, n, &alpha, CUDA_R_32F, x, CUDA_R_16BF, 1, z, CUDA_R_16BF, 1, CUDA_R_32F);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasScalEx/cublasAxpyEx failed (%d)\n", status);
}
