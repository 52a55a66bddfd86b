// Vendor baseline for suites/llm/linear_gelu_softmax-f32: cublasLtMatmul with the bias in its epilogue, then
// one kernel applying the erf GELU and the row softmax in place (../linear_gelu_softmax-cublaslt.cuh:
// cuBLASLt's GELU epilogues are the tanh approximation), float storage, FP32 compute.
#include <cuda_bf16.h>

#include "../linear_gelu_softmax-cublaslt.cuh"

extern "C" void linear_gelu_softmax(float* out, const float* x, const float* weight, const float* bias, int M,
                                    int N, int K) {
  llm_linear_gelu_softmax::linear_gelu_softmax_cublaslt(out, x, weight, bias, M, N, K);
}
