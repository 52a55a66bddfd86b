// Shared by channel_scale_sigmoid-{f32,bf16}: a per-channel scale and a sigmoid over an NCHW tensor,
//   out[n][c][i] = sigmoid(x[n][c][i] * scale[c]) = 1 / (1 + exp(-x[n][c][i] * scale[c]))
// with x and out of N x C x HW (HW = H*W; HW = 1 is an N x C matrix) and scale of C values, PyTorch's
// parameter of shape (C, 1, 1) broadcast over the batch and the plane: `x = x * self.scale; x =
// torch.sigmoid(x)` in KernelBench level 2's 21_Conv2d_Add_Scale_Sigmoid_GroupNorm, after its convolution and
// bias.
//
// Reference: one thread per output element, the channel found by division, the scale read straight from
// global memory, the product and the sigmoid in double, one rounding to the storage type: naive on purpose,
// and the accurate side of every comparison. No vendor baseline: no installed library (cuBLAS, CUB, thrust;
// cuDNN is not installed) applies a per-channel parameter and an activation in one pass.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "element.cuh"

template <typename T>
__global__ void channel_scale_sigmoid_reference_kernel(T* out, const T* x, const T* scale, int C, int HW,
                                                       long long total) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  int const c = static_cast<int>((i / HW) % C);
  using scientific_suite::to_double;
  double const t = to_double(x[i]) * to_double(scale[c]);
  scientific_suite::store(&out[i], 1.0 / (1.0 + exp(-t)));
}

// The launch [launch] describes: one thread per element in blocks of 256.
template <typename T>
void channel_scale_sigmoid_reference(T* out, const T* x, const T* scale, int N, int C, int HW) {
  long long const total = static_cast<long long>(N) * C * HW;
  if (N <= 0 || C <= 0 || HW <= 0) return;
  channel_scale_sigmoid_reference_kernel<T>
      <<<static_cast<unsigned>((total + 255) / 256), 256>>>(out, x, scale, C, HW, total);
}
