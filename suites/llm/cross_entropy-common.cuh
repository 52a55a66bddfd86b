// Shared by suites/llm/cross_entropy-f32 and cross_entropy-bf16: per-row cross-entropy loss of an
// N x C row-major matrix of logits (C = vocabulary size) against integer labels in [0, C):
//   loss[r] = log(sum_j exp(logits[r][j] - m_r)) + m_r - logits[r][labels[r]],  m_r = max_j logits[r][j].
// The loss is written as FP32 in both variants (only the logits are BF16 in the bf16 task), as
// training frameworks keep the loss in FP32. One thread per output element (= per row), two passes
// over the row (max, sum of exponentials). Naive on purpose (uncoalesced, little parallelism) but
// obviously correct. Computed in double and rounded once, so the reference is the accurate side of
// every comparison. A label outside [0, C) gives NaN (the generator never produces one).
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace llm_cross_entropy {

using namespace kopt_suite;

template <typename T>
__global__ void cross_entropy_reference_kernel(float* loss, const T* logits, const int* labels, int N,
                                               int C) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N) return;
  const T* x = logits + static_cast<long long>(row) * C;
  int const label = labels[row];
  if (label < 0 || label >= C) {
    loss[row] = __int_as_float(0x7fc00000);  // quiet NaN
    return;
  }
  double max_value = to_double(x[0]);
  for (int j = 1; j < C; ++j) max_value = fmax(max_value, to_double(x[j]));
  double sum = 0.0;
  for (int j = 0; j < C; ++j) sum += exp(to_double(x[j]) - max_value);
  loss[row] = static_cast<float>(log(sum) + max_value - to_double(x[label]));
}

template <typename T>
void launch(float* loss, const T* logits, const int* labels, int N, int C) {
  if (N <= 0 || C <= 0) return;
  int const block = 32;  // one warp per block: spreads the few rows over many SMs
  cross_entropy_reference_kernel<<<(N + block - 1) / block, block>>>(loss, logits, labels, N, C);
}

}  // namespace llm_cross_entropy
