// Shared by suites/llm/row_log_softmax-f32 and row_log_softmax-bf16: numerically stable log-softmax over
// each row of an N x C row-major matrix,
//   out[r][j] = in[r][j] - m_r - log(sum_k exp(in[r][k] - m_r)),  m_r = max_k in[r][k]
// (torch.log_softmax(x, dim=-1), the first half of a cross-entropy). One thread per row, three passes:
// max, sum of exponentials, write. Naive on purpose (uncoalesced, little parallelism) but obviously
// correct; the sum and the logarithm are computed in double and each output is rounded once.
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace llm_row_log_softmax {

using namespace kopt_suite;

template <typename T>
__global__ void row_log_softmax_reference_kernel(T* out, const T* in, int N, int C) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N) return;
  const T* x = in + static_cast<long long>(row) * C;
  T* y = out + static_cast<long long>(row) * C;
  double max_value = to_double(x[0]);
  for (int j = 1; j < C; ++j) max_value = fmax(max_value, to_double(x[j]));
  double sum = 0.0;
  for (int j = 0; j < C; ++j) sum += exp(to_double(x[j]) - max_value);
  double const shift = max_value + log(sum);
  for (int j = 0; j < C; ++j) store(&y[j], to_double(x[j]) - shift);
}

template <typename T>
void launch(T* out, const T* in, int N, int C) {
  if (N <= 0 || C <= 0) return;
  int const block = 32;  // one warp per block: spreads the few rows over many SMs
  row_log_softmax_reference_kernel<<<(N + block - 1) / block, block>>>(out, in, N, C);
}

}  // namespace llm_row_log_softmax
