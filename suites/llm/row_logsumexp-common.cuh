// Shared by suites/llm/row_logsumexp-f32 and row_logsumexp-bf16: the log-sum-exp of each row of a row-major
// rows x cols matrix, out[r] = m_r + log(sum_c exp(in[r][c] - m_r)) with m_r = max_c in[r][c]
// (torch.logsumexp(x, dim=-1): the normaliser of a softmax or a cross-entropy, a z-loss's operand). One
// thread per row, two passes (the maximum, then the sum of exponentials) in double, rounded once. Naive on
// purpose (neighbouring threads read rows cols elements apart) but obviously correct.
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace llm_row_logsumexp {

using namespace kopt_suite;

template <typename T>
__global__ void row_logsumexp_reference_kernel(T* out, const T* in, int rows, int cols) {
  long long const row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const T* x = in + row * cols;
  double max_value = to_double(x[0]);
  for (int c = 1; c < cols; ++c) max_value = fmax(max_value, to_double(x[c]));
  double sum = 0.0;
  for (int c = 0; c < cols; ++c) sum += exp(to_double(x[c]) - max_value);
  store(&out[row], max_value + log(sum));
}

template <typename T>
void launch(T* out, const T* in, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  int const block = 32;  // one warp per block: spreads the few rows over many SMs
  row_logsumexp_reference_kernel<<<(rows + block - 1) / block, block>>>(out, in, rows, cols);
}

}  // namespace llm_row_logsumexp
