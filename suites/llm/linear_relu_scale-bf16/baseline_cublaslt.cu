// Vendor baseline for suites/llm/linear_relu_scale-bf16: cublasLtMatmul with the bias and ReLU in its
// epilogue, then one pass that multiplies by the per-feature scale (../linear_relu-cublaslt.cuh),
// __nv_bfloat16 storage, FP32 compute.
#include <cuda_bf16.h>

#include "../linear_relu-cublaslt.cuh"

extern "C" void linear_relu_scale(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* weight,
                                  const __nv_bfloat16* bias, int M, int N, int K,
                                  const __nv_bfloat16* scale) {
  llm_linear_relu::linear_relu_cublaslt(out, x, weight, bias, M, N, K, scale);
}
