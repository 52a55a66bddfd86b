// Shared by suites/llm/silu-f32 and silu-bf16: SiLU (swish), out[i] = x / (1 + exp(-x)), x = in[i],
// one thread per element. The reference evaluates the formula in double and rounds once to the
// output type, so it is the accurate side of every comparison. Naive on purpose but obviously correct.
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace llm_silu {

using namespace kopt_suite;

template <typename T>
__global__ void silu_reference_kernel(T* out, const T* in, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double const x = to_double(in[i]);
  store(&out[i], x / (1.0 + exp(-x)));
}

template <typename T>
void launch(T* out, const T* in, int n) {
  if (n <= 0) return;
  int const block = 256;
  silu_reference_kernel<<<(n + block - 1) / block, block>>>(out, in, n);
}

}  // namespace llm_silu
