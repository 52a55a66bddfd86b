// Shared by mse_loss-* and kl_div-*: a loss that is the mean over 0 <= i < n of a per-element term of two
// vectors, *out = (1/n) sum_i term(x[i], y[i]); and by kl_div_batchmean-* and hinge_loss_broadcast-* (the
// loss_rows and loss_rows_broadcast families): x a rows x cols matrix, y another (or, broadcast, one vector
// of cols values: y[j] beside x[i][j]), the sum divided by rows (PyTorch's "batchmean") or by rows * cols.
//
// Reference: a single block of 1024 threads; thread t adds term(x[i], y[i]) for i = t, t + 1024, ... in
// double, the block adds the 1024 partial sums in a fixed shared-memory tree, and thread 0 divides by n and
// rounds once to the output type (as dot-common.cuh: slow on purpose, obviously correct, deterministic,
// and the accurate side of every comparison).
//
// The vendor baseline (CUB) is in loss-cub.cuh.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

constexpr int kLossReferenceThreads = 1024;

template <typename Term, typename T>
__global__ void loss_reference_kernel(T* out, const T* x, const T* y, int n) {
  __shared__ double partial[kLossReferenceThreads];
  double sum = 0.0;
  for (long long i = threadIdx.x; i < n; i += blockDim.x)
    sum += Term::exact(static_cast<double>(static_cast<float>(x[i])),
                       static_cast<double>(static_cast<float>(y[i])));
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kLossReferenceThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = static_cast<T>(n > 0 ? partial[0] / n : 0.0);
}

template <typename Term, typename T>
void loss_reference(T* out, const T* x, const T* y, int n) {
  loss_reference_kernel<Term, T><<<1, kLossReferenceThreads>>>(out, x, y, n < 0 ? 0 : n);
}

// loss_rows and loss_rows_broadcast: where y[k] beside x[k] is (the same index, or column k % cols), and what
// the sum is divided by.
enum class LossY { kSameIndex, kBroadcastRows };
enum class LossDivisor { kRows, kAll };

template <LossY Y>
__host__ __device__ inline long long loss_y_index(long long k, int cols) {
  if (Y == LossY::kSameIndex) return k;
  // A 32-bit remainder where the index fits (the baseline's per-element cost), else a 64-bit one.
  return k <= 0xffffffffLL ? static_cast<long long>(static_cast<unsigned>(k) % static_cast<unsigned>(cols))
                           : k % cols;
}

template <LossDivisor D>
__host__ __device__ inline double loss_divisor(int rows, int cols) {
  return D == LossDivisor::kRows ? static_cast<double>(rows) : static_cast<double>(rows) * cols;
}

// The reference: loss_reference_kernel's single block and double sums over the rows * cols terms.
template <typename Term, LossY Y, LossDivisor D, typename T>
__global__ void loss_rows_reference_kernel(T* out, const T* x, const T* y, int rows, int cols) {
  __shared__ double partial[kLossReferenceThreads];
  long long const n = static_cast<long long>(rows) * cols;
  double sum = 0.0;
  for (long long k = threadIdx.x; k < n; k += blockDim.x)
    sum += Term::exact(static_cast<double>(static_cast<float>(x[k])),
                       static_cast<double>(static_cast<float>(y[loss_y_index<Y>(k, cols)])));
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kLossReferenceThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = static_cast<T>(n > 0 ? partial[0] / loss_divisor<D>(rows, cols) : 0.0);
}

template <typename Term, LossY Y, LossDivisor D, typename T>
void loss_rows_reference(T* out, const T* x, const T* y, int rows, int cols) {
  loss_rows_reference_kernel<Term, Y, D, T>
      <<<1, kLossReferenceThreads>>>(out, x, y, rows < 0 ? 0 : rows, cols < 0 ? 0 : cols);
}

// Mean squared error: term (x - y)^2.
struct SquaredError {
  __host__ __device__ static double exact(double x, double y) { return (x - y) * (x - y); }
  __host__ __device__ static float fast(float x, float y) { return (x - y) * (x - y); }
};

// Kullback-Leibler divergence of targets y (probabilities, > 0) from predictions given as log-probabilities
// x, PyTorch's kl_div(input = x, target = y, reduction = "mean"): term y * (log y - x).
struct KlTerm {
  __host__ __device__ static double exact(double x, double y) { return y * (log(y) - x); }
  __host__ __device__ static float fast(float x, float y) { return y * (logf(y) - x); }
};

// KL divergence as KernelBench's 98_KLDivLoss computes it, F.kl_div(torch.log(x), y): x and y probabilities
// (x > 0), term xlogy(y, y) - y log x, 0 log 0 taken as 0 (PyTorch's xlogy).
struct KlProbTerm {
  __host__ __device__ static double exact(double x, double y) {
    return (y == 0.0 ? 0.0 : y * log(y)) - y * log(x);
  }
  __host__ __device__ static float fast(float x, float y) {
    return (y == 0.0f ? 0.0f : y * logf(y)) - y * logf(x);
  }
};

// Hinge loss of a prediction x against a target y (+1 or -1 for binary classification): max(1 - x y, 0).
struct HingeTerm {
  __host__ __device__ static double exact(double x, double y) { return fmax(1.0 - x * y, 0.0); }
  __host__ __device__ static float fast(float x, float y) { return fmaxf(1.0f - x * y, 0.0f); }
};
