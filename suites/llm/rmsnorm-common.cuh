// Shared by suites/llm/rmsnorm-f32 and rmsnorm-bf16: RMSNorm over each row of an N x C row-major
// matrix with a per-column weight (length C) and eps = 1e-6 (LLaMA):
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
__global__ void rmsnorm_reference_kernel(T* out, const T* in, const T* weight, int N, int C) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N) return;
  double const eps = 1e-6;
  const T* x = in + static_cast<long long>(row) * C;
  T* y = out + static_cast<long long>(row) * C;
  double squares = 0.0;
  for (int j = 0; j < C; ++j) squares += to_double(x[j]) * to_double(x[j]);
  double const inverse_rms = 1.0 / sqrt(squares / C + eps);
  for (int j = 0; j < C; ++j) store(&y[j], to_double(x[j]) * inverse_rms * to_double(weight[j]));
}

template <typename T>
void launch(T* out, const T* in, const T* weight, int N, int C) {
  if (N <= 0 || C <= 0) return;
  int const block = 32;  // one warp per block: spreads the few rows over many SMs
  rmsnorm_reference_kernel<<<(N + block - 1) / block, block>>>(out, in, weight, N, C);
}

}  // namespace llm_rmsnorm
