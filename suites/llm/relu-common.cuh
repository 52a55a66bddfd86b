// Shared by suites/llm/relu-f32 and relu-bf16: out[i] = max(in[i], 0), one thread per element.
// Naive on purpose (scalar loads, 256-thread blocks) but obviously correct. ReLU is exact in any
// precision: the output is the input or zero, with no rounding.
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace llm_relu {

using namespace kopt_suite;

template <typename T>
__global__ void relu_reference_kernel(T* out, const T* in, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = to_float(in[i]) > 0.0f ? in[i] : T(0.0f);
}

template <typename T>
void launch(T* out, const T* in, int n) {
  if (n <= 0) return;
  int const block = 256;
  relu_reference_kernel<<<(n + block - 1) / block, block>>>(out, in, n);
}

}  // namespace llm_relu
