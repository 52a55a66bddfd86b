// Reference 2D pooling, shared by maxpool2d-{f32,bf16} and avgpool2d-{f32,bf16}: NCHW input, N*C planes
// of H x W, K x K windows with stride S and no padding ("valid"), Ho = (H-K)/S + 1, Wo = (W-K)/S + 1:
//   max:     out[n][c][y][x] = max over 0 <= ky, kx < K of in[n][c][y*S + ky][x*S + kx]
//   average: out[n][c][y][x] = (sum over the same window) / (K*K)
// One thread per output, the window read straight from global memory in (ky, kx) order, FP32
// accumulation (exact for the maximum), one rounding to the storage type. Naive on purpose: with S < K
// each input is loaded several times, and nothing is vectorised. 64-bit indices: N*C*H*W may exceed 2^31.
#pragma once
#include <math.h>

#include "element.cuh"

namespace scientific_suite {

enum class Pool { max, average };

template <typename T, Pool Op>
__global__ void pool2d_reference_kernel(T* out, const T* in, int N, int C, int H, int W, int K, int S) {
  int const Ho = (H - K) / S + 1;
  int const Wo = (W - K) / S + 1;
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  long long const total = static_cast<long long>(N) * C * Ho * Wo;
  if (i >= total) return;
  int const x = static_cast<int>(i % Wo);
  int const y = static_cast<int>((i / Wo) % Ho);
  long long const plane = i / (static_cast<long long>(Wo) * Ho);
  const T* window = in + (plane * H + static_cast<long long>(y) * S) * W + static_cast<long long>(x) * S;
  float acc = Op == Pool::max ? -INFINITY : 0.0f;
  for (int ky = 0; ky < K; ++ky) {
    for (int kx = 0; kx < K; ++kx) {
      float const v = to_float(window[static_cast<long long>(ky) * W + kx]);
      acc = Op == Pool::max ? fmaxf(acc, v) : acc + v;
    }
  }
  if (Op == Pool::average) acc = acc / static_cast<float>(K * K);
  out[i] = from_float<T>(acc);
}

template <typename T, Pool Op>
void pool2d_reference(T* out, const T* in, int N, int C, int H, int W, int K, int S) {
  if (N <= 0 || C <= 0 || K <= 0 || S <= 0 || H < K || W < K) return;
  long long const total =
      static_cast<long long>(N) * C * ((H - K) / S + 1) * static_cast<long long>((W - K) / S + 1);
  int const block = 256;
  pool2d_reference_kernel<T, Op>
      <<<static_cast<unsigned>((total + block - 1) / block), block>>>(out, in, N, C, H, W, K, S);
}

}  // namespace scientific_suite
