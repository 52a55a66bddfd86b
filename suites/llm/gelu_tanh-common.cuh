// Shared by suites/llm/gelu_tanh-f32 and gelu_tanh-bf16: the tanh approximation of GELU,
//   out[i] = 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))),  x = in[i],
// one thread per element. The reference evaluates the formula in double and rounds once to the
// output type, so it is the accurate side of every comparison. Naive on purpose but obviously correct.
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace llm_gelu_tanh {

using namespace kopt_suite;

template <typename T>
__global__ void gelu_tanh_reference_kernel(T* out, const T* in, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double const sqrt_2_over_pi = 0.7978845608028654;  // sqrt(2 / pi)
  double const x = to_double(in[i]);
  double const inner = sqrt_2_over_pi * (x + 0.044715 * x * x * x);
  store(&out[i], 0.5 * x * (1.0 + tanh(inner)));
}

template <typename T>
void launch(T* out, const T* in, int n) {
  if (n <= 0) return;
  int const block = 256;
  gelu_tanh_reference_kernel<<<(n + block - 1) / block, block>>>(out, in, n);
}

}  // namespace llm_gelu_tanh
