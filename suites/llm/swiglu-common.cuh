// Shared by suites/llm/swiglu-f32 and swiglu-bf16: the SwiGLU gate of an LLM MLP,
//   out[i] = silu(gate[i]) * up[i] = gate[i] / (1 + exp(-gate[i])) * up[i],
// with gate and up in two separate buffers of n elements, one thread per element. The reference
// evaluates the formula in double and rounds once to the output type, so it is the accurate side of
// every comparison. Naive on purpose but obviously correct.
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace llm_swiglu {

using namespace kopt_suite;

template <typename T>
__global__ void swiglu_reference_kernel(T* out, const T* gate, const T* up, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double const g = to_double(gate[i]);
  store(&out[i], g / (1.0 + exp(-g)) * to_double(up[i]));
}

template <typename T>
void launch(T* out, const T* gate, const T* up, int n) {
  if (n <= 0) return;
  int const block = 256;
  swiglu_reference_kernel<<<(n + block - 1) / block, block>>>(out, gate, up, n);
}

}  // namespace llm_swiglu
