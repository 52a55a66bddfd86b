// Vendor baseline for suites/llm/linear_relu-f32: cublasLtMatmul with the bias and ReLU in its epilogue
// (../linear_relu-cublaslt.cuh), float storage, FP32 compute.
#include <cuda_bf16.h>

#include "../linear_relu-cublaslt.cuh"

extern "C" void linear_relu(float* out, const float* x, const float* weight, const float* bias, int M, int N,
                            int K) {
  llm_linear_relu::linear_relu_cublaslt(out, x, weight, bias, M, N, K);
}
