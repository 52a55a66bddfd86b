// Shared by suites/llm/layernorm-{f32,bf16} and layernorm_stats-{f32,bf16} (which also write each row's
// mean and rstd = 1 / sqrt(var_r + eps) in FP32, as torch.native_layer_norm returns them): LayerNorm over
// each row of an N x C row-major matrix with per-column gamma and beta (length C) and eps = 1e-5:
//   mean_r = sum_j x[r][j] / C,  var_r = sum_j (x[r][j] - mean_r)^2 / C  (biased, as in PyTorch),
//   out[r][j] = (x[r][j] - mean_r) / sqrt(var_r + eps) * gamma[j] + beta[j].
// One thread per row (every output of a row needs the row's mean and variance), three passes over the
// row: mean, variance (two-pass, no cancellation), normalised write. Naive on purpose (uncoalesced,
// little parallelism) but obviously correct. Statistics and outputs are computed in double and each
// output is rounded once, so the reference is the accurate side of every comparison.
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace llm_layernorm {

using namespace kopt_suite;

template <typename T>
__global__ void layernorm_reference_kernel(T* out, const T* in, const T* gamma, const T* beta, int N, int C,
                                           double eps, float* mean_out, float* rstd_out) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N) return;
  const T* x = in + static_cast<long long>(row) * C;
  T* y = out + static_cast<long long>(row) * C;
  double sum = 0.0;
  for (int j = 0; j < C; ++j) sum += to_double(x[j]);
  double const mean = sum / C;
  double squares = 0.0;
  for (int j = 0; j < C; ++j) {
    double const d = to_double(x[j]) - mean;
    squares += d * d;
  }
  double const rstd = 1.0 / sqrt(squares / C + eps);
  if (mean_out != nullptr) mean_out[row] = static_cast<float>(mean);
  if (rstd_out != nullptr) rstd_out[row] = static_cast<float>(rstd);
  for (int j = 0; j < C; ++j) {
    store(&y[j], (to_double(x[j]) - mean) * rstd * to_double(gamma[j]) + to_double(beta[j]));
  }
}

template <typename T>
void launch(T* out, const T* in, const T* gamma, const T* beta, int N, int C, double eps = 1e-5,
            float* mean = nullptr, float* rstd = nullptr) {
  if (N <= 0 || C <= 0) return;
  int const block = 32;  // one warp per block: spreads the few rows over many SMs
  layernorm_reference_kernel<<<(N + block - 1) / block, block>>>(out, in, gamma, beta, N, C, eps, mean, rstd);
}

}  // namespace llm_layernorm
