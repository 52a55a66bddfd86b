// Shared by suites/llm/row_softmax-f32 and row_softmax-bf16: numerically stable softmax over each row
// of an N x C row-major matrix,
//   out[r][j] = exp(in[r][j] - m_r) / sum_k exp(in[r][k] - m_r),  m_r = max_k in[r][k].
// One thread per row (every output of a row needs the whole row's max and sum; a thread per element
// would redo both C times), three passes over the row: max, sum of exponentials, normalised write.
// Naive on purpose (uncoalesced, little parallelism) but obviously correct. The exponentials and the
// sum are computed in double and each output is rounded once, so the reference is the accurate side
// of every comparison.
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace llm_row_softmax {

using namespace kopt_suite;

template <typename T>
__global__ void row_softmax_reference_kernel(T* out, const T* in, int N, int C) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N) return;
  const T* x = in + static_cast<long long>(row) * C;
  T* y = out + static_cast<long long>(row) * C;
  double max_value = to_double(x[0]);
  for (int j = 1; j < C; ++j) max_value = fmax(max_value, to_double(x[j]));
  double sum = 0.0;
  for (int j = 0; j < C; ++j) sum += exp(to_double(x[j]) - max_value);
  for (int j = 0; j < C; ++j) store(&y[j], exp(to_double(x[j]) - max_value) / sum);
}

template <typename T>
void launch(T* out, const T* in, int N, int C) {
  if (N <= 0 || C <= 0) return;
  int const block = 32;  // one warp per block: spreads the few rows over many SMs
  row_softmax_reference_kernel<<<(N + block - 1) / block, block>>>(out, in, N, C);
}

}  // namespace llm_row_softmax
