// Shared by suites/llm/cross_entropy_mean-f32 and cross_entropy_mean-bf16: the mean cross-entropy loss of an
// N x C row-major matrix of logits (C = vocabulary size) against integer labels, as
// torch.nn.functional.cross_entropy(logits, labels) with its defaults (reduction "mean", ignore_index -100):
//   loss[0] = (1 / |R|) sum_{r in R} (log(sum_j exp(logits[r][j] - m_r)) + m_r - logits[r][labels[r]]),
// m_r = max_j logits[r][j], R the rows whose label is not -100. No counted row gives NaN (0/0), as in
// PyTorch; a label outside [0, C) that is not -100 makes its row's loss, and so the mean, NaN.
//
// Naive on purpose but obviously correct, two kernels on the default stream:
//   1. one thread per row computes the row's loss in double (two passes over the row: max, then the sum of
//      exponentials) into a scratch buffer of doubles;
//   2. one thread sums the counted rows' losses in row order, in double, and writes their mean rounded once
//      to the loss type.
// The scratch buffer is one device allocation, grown when a larger size case needs more (never per call);
// the first call of each size case runs outside graph capture, where the growing happens.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../common/element.cuh"

namespace llm_cross_entropy_mean {

using namespace kopt_suite;

constexpr long long kIgnoreIndex = -100;  // PyTorch's default ignore_index

template <typename T, typename I>
__global__ void row_loss_kernel(double* row_loss, const T* logits, const I* labels, int N, int C) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N) return;
  long long const label = static_cast<long long>(labels[row]);
  if (label == kIgnoreIndex) {
    row_loss[row] = 0.0;  // not counted (kernel 2 skips it)
    return;
  }
  if (label < 0 || label >= C) {
    row_loss[row] = __longlong_as_double(0x7ff8000000000000LL);  // quiet NaN
    return;
  }
  const T* x = logits + static_cast<long long>(row) * C;
  double max_value = to_double(x[0]);
  for (int j = 1; j < C; ++j) max_value = fmax(max_value, to_double(x[j]));
  double sum = 0.0;
  for (int j = 0; j < C; ++j) sum += exp(to_double(x[j]) - max_value);
  row_loss[row] = log(sum) + max_value - to_double(x[label]);
}

template <typename T, typename I>
__global__ void mean_kernel(T* loss, const double* row_loss, const I* labels, int N) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  double sum = 0.0;
  long long count = 0;
  for (int r = 0; r < N; ++r) {
    if (static_cast<long long>(labels[r]) == kIgnoreIndex) continue;
    sum += row_loss[r];
    ++count;
  }
  store(loss, sum / static_cast<double>(count));  // 0 / 0 = NaN when no row counts, as PyTorch
}

// At least n doubles of device memory, or nullptr after printing why.
inline double* row_loss_scratch(int n) {
  static double* buffer = nullptr;
  static int capacity = 0;
  if (n < 1) n = 1;
  if (n > capacity) {
    if (buffer != nullptr) cudaFree(buffer);
    buffer = nullptr;
    capacity = 0;
    if (cudaMalloc(&buffer, static_cast<size_t>(n) * sizeof(double)) != cudaSuccess) {
      std::fprintf(stderr, "cross_entropy_mean reference: cudaMalloc of the row losses failed\n");
      buffer = nullptr;
      return nullptr;
    }
    capacity = n;
  }
  return buffer;
}

template <typename T, typename I>
void launch(T* loss, const T* logits, const I* labels, int N, int C) {
  double* row_loss = row_loss_scratch(N);
  if (row_loss == nullptr) return;
  if (N > 0) {
    int const block = 32;  // one warp per block: spreads the few rows over many SMs
    row_loss_kernel<<<(N + block - 1) / block, block>>>(row_loss, logits, labels, N, C);
  }
  mean_kernel<<<1, 1>>>(loss, row_loss, labels, N < 0 ? 0 : N);
}

}  // namespace llm_cross_entropy_mean
