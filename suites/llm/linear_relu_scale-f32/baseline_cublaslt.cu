// Vendor baseline for suites/llm/linear_relu_scale-f32: cublasLtMatmul with the bias and ReLU in its
// epilogue, then one pass that multiplies by the per-feature scale (../linear_relu-cublaslt.cuh), float
// storage, FP32 compute.
#include <cuda_bf16.h>

#include "../linear_relu-cublaslt.cuh"

extern "C" void linear_relu_scale(float* out, const float* x, const float* weight, const float* bias, int M,
                                  int N, int K, const float* scale) {
  llm_linear_relu::linear_relu_cublaslt(out, x, weight, bias, M, N, K, scale);
}
