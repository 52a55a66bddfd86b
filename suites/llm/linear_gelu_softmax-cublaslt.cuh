// Vendor baseline shared by suites/llm/linear_gelu_softmax-f32 and linear_gelu_softmax-bf16: what eager
// PyTorch runs for softmax(gelu(linear(x)), dim=1), with the GELU folded into the softmax's kernel:
//   1. one cublasLtMatmul with the bias in its epilogue (CUBLASLT_EPILOGUE_BIAS: addmm's), FP32 compute
//      (CUBLAS_COMPUTE_32F: no TF32), written to out, rounded to the element type;
//   2. one kernel, a 256-thread block per row, in place over out: GELU (exact erf form) of each element,
//      rounded to the element type as eager stores the GELU's output, then the row's softmax in FP32 (one
//      online pass for the maximum and the sum of exponentials, a second pass, mostly from L2, recomputing
//      the GELU and writing the outputs rounded once).
// cuBLASLt has no erf-GELU epilogue: CUBLASLT_EPILOGUE_GELU_BIAS is the tanh approximation, a different
// function, so the GELU is not in the GEMM's epilogue. The plan machinery (handle, 32 MiB workspace,
// descriptors, layouts: out^T = weight * x^T in cuBLASLt's column-major terms) is linear_relu's
// (linear_relu-cublaslt.cuh), the plan cached per shape (lt_linear). Should the heuristic offer no algorithm
// with the bias epilogue, a plain cublasLtMatmul is used and the row kernel adds the bias (rounding the sum
// to the element type first, as the linear's output), said once on stderr.
#pragma once
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>

#include "../common/element.cuh"
#include "linear_relu-cublaslt.cuh"

namespace llm_linear_gelu_softmax {

constexpr int kRowBlock = 256;

// t0 of one element: the linear's output (plus the bias when the matmul did not add it), GELU, both rounded
// to T as eager PyTorch stores them.
template <typename T>
__device__ __forceinline__ float gelu_of(const T* row, const T* bias, int j) {
  float v = kopt_suite::to_float(row[j]);
  if (bias != nullptr) v = kopt_suite::to_float(kopt_suite::from_float<T>(v + kopt_suite::to_float(bias[j])));
  float const g = 0.5f * v * (1.0f + erff(v * 0.70710678118654752f));
  return kopt_suite::to_float(kopt_suite::from_float<T>(g));
}

// Combines a partial (maximum m, sum s of exp(value - m)) with another; (-inf, 0) is the empty partial.
__device__ __forceinline__ void combine(float& m, float& s, float m2, float s2) {
  float const top = fmaxf(m, m2);
  if (top == -INFINITY) return;  // both empty
  s = s * expf(m - top) + s2 * expf(m2 - top);
  m = top;
}

// In place over the M x N matrix out: one block of kRowBlock threads per row. bias: nullptr when the matmul
// added it.
template <typename T>
__global__ void __launch_bounds__(kRowBlock) gelu_softmax_rows_kernel(T* out, const T* bias, int N) {
  __shared__ float shared_m[kRowBlock / 32];
  __shared__ float shared_s[kRowBlock / 32];
  T* const row = out + static_cast<long long>(blockIdx.x) * N;
  float m = -INFINITY;
  float s = 0.0f;
  for (int j = threadIdx.x; j < N; j += kRowBlock) {
    float const g = gelu_of(row, bias, j);
    if (g > m) {
      s = s * expf(m - g) + 1.0f;
      m = g;
    } else {
      s += expf(g - m);
    }
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    float const m2 = __shfl_xor_sync(0xffffffffu, m, offset);
    float const s2 = __shfl_xor_sync(0xffffffffu, s, offset);
    combine(m, s, m2, s2);
  }
  int const warp = threadIdx.x / 32;
  int const lane = threadIdx.x % 32;
  if (lane == 0) {
    shared_m[warp] = m;
    shared_s[warp] = s;
  }
  __syncthreads();  // every read of the row's first pass is done before any write below
  m = shared_m[0];
  s = shared_s[0];
  for (int w = 1; w < kRowBlock / 32; ++w) combine(m, s, shared_m[w], shared_s[w]);
  for (int j = threadIdx.x; j < N; j += kRowBlock)
    row[j] = kopt_suite::from_float<T>(expf(gelu_of(row, bias, j) - m) / s);
}

template <typename T>
void linear_gelu_softmax_cublaslt(T* out, const T* x, const T* weight, const T* bias, int M, int N, int K) {
  if (llm_linear_relu::lt_handle() == nullptr || M <= 0 || N <= 0) return;
  bool fused = false;
  if (!llm_linear_relu::lt_linear(
          out, x, weight, bias, M, N, K, CUBLASLT_EPILOGUE_BIAS,
          "bias epilogue; a plain matmul, the bias added by the GELU + softmax kernel instead", fused))
    return;
  gelu_softmax_rows_kernel<T>
      <<<static_cast<unsigned>(M), kRowBlock, 0, cudaStreamPerThread>>>(out, fused ? nullptr : bias, N);
}

}  // namespace llm_linear_gelu_softmax
