// Shared by l2_normalize-f32 and l2_normalize-bf16: F.normalize(x, p=2, dim=-1) of a row-major rows x cols
// matrix, with PyTorch's eps = 1e-12:
//   out[r][j] = in[r][j] / max(||in[r]||_2, 1e-12),   ||in[r]||_2 = sqrt(sum over j of in[r][j]^2)
// (one row of the whole tensor is a Frobenius normalisation). One block of 256 threads per row (one thread
// per row would leave a single long row, such as the one_row case's, to one thread), naive on purpose: a
// strided pass over the row out of global memory, each thread summing its squares in double and the block
// adding the 256 partial sums in a fixed shared-memory tree (deterministic), then a second pass dividing
// each element in double, rounded once to the output type. The accurate side of every comparison.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "../common/element.cuh"

constexpr int kL2NormalizeReferenceThreads = 256;

// Block r normalises row r.
template <typename T>
__global__ void l2_normalize_reference_kernel(T* out, const T* in, int cols) {
  __shared__ double partial[kL2NormalizeReferenceThreads];
  using kopt_suite::to_double;
  long long const base = static_cast<long long>(blockIdx.x) * cols;
  const T* row = in + base;
  T* y = out + base;
  int const first = static_cast<int>(threadIdx.x);
  int const step = kL2NormalizeReferenceThreads;
  double squares = 0.0;
  for (int j = first; j < cols; j += step) {
    double const v = to_double(row[j]);
    squares += v * v;
  }
  partial[threadIdx.x] = squares;
  __syncthreads();
  for (int stride = kL2NormalizeReferenceThreads / 2; stride > 0; stride /= 2) {
    if (first < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  double const norm = fmax(sqrt(partial[0]), 1e-12);
  for (int j = first; j < cols; j += step) kopt_suite::store(&y[j], to_double(row[j]) / norm);
}

// The launch [launch] describes: rows blocks of 256 threads.
template <typename T>
void l2_normalize_reference(T* out, const T* in, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  l2_normalize_reference_kernel<T>
      <<<static_cast<unsigned>(rows), kL2NormalizeReferenceThreads>>>(out, in, cols);
}
