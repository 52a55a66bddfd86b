// Shared by suites/llm/rmsnorm-{f32,bf16} and rmsnorm_stats-{f32,bf16} (which take eps and also write
// each row's rstd = 1 / sqrt(sum_k x[r][k]^2 / C + eps) in FP32, as fused RMSNorm kernels keep it): RMSNorm
// over each row of an N x C row-major matrix with a per-column weight (length C) and eps = 1e-6 (LLaMA):
//   out[r][j] = x[r][j] / sqrt(sum_k x[r][k]^2 / C + eps) * weight[j].
// One thread per row (every output of a row needs the row's mean square), two passes over the row:
// sum of squares, scaled write. Naive on purpose (uncoalesced, little parallelism) but obviously
// correct. The sum and the outputs are computed in double and each output is rounded once (no
// intermediate rounding to the storage type), so the reference is the accurate side of every
// comparison.
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace llm_rmsnorm {

using namespace kopt_suite;

template <typename T>
__global__ void rmsnorm_reference_kernel(T* out, const T* in, const T* weight, int N, int C, double eps,
                                         float* rstd) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N) return;
  const T* x = in + static_cast<long long>(row) * C;
  T* y = out + static_cast<long long>(row) * C;
  double squares = 0.0;
  for (int j = 0; j < C; ++j) squares += to_double(x[j]) * to_double(x[j]);
  double const inverse_rms = 1.0 / sqrt(squares / C + eps);
  if (rstd != nullptr) rstd[row] = static_cast<float>(inverse_rms);
  for (int j = 0; j < C; ++j) store(&y[j], to_double(x[j]) * inverse_rms * to_double(weight[j]));
}

template <typename T>
void launch(T* out, const T* in, const T* weight, int N, int C, double eps = 1e-6, float* rstd = nullptr) {
  if (N <= 0 || C <= 0) return;
  int const block = 32;  // one warp per block: spreads the few rows over many SMs
  rmsnorm_reference_kernel<<<(N + block - 1) / block, block>>>(out, in, weight, N, C, eps, rstd);
}

}  // namespace llm_rmsnorm
