// Reference composite Simpson integration, shared by integration-{f32,bf16} and integration_integrand-*
// (which pass their own integrand): for each of B intervals,
//   out[b] ~= integral from lo[b] to hi[b] of f(x) dx,  f(x) = exp(-x*x/2) * cos(4x) + 1 / (1 + x*x),
// with the composite Simpson rule over n (even) subintervals of width h = (hi - lo) / n:
//   (h/3) * [f(x_0) + 4 f(x_1) + 2 f(x_2) + 4 f(x_3) + ... + 4 f(x_{n-1}) + f(x_n)],  x_j = lo + j*h.
// One thread per integral evaluates f in FP32 at every node and accumulates the weighted samples in
// double (an FP32 running sum over 2^18 samples drifts by up to ~1e-5 relative; the reference must
// be the accurate side), then rounds once to the storage type. Naive on purpose: with few intervals and
// many nodes most of the GPU idles.
#pragma once
#include "element.cuh"

__device__ __forceinline__ float integration_f(float x) {
  return expf(-0.5f * x * x) * cosf(4.0f * x) + 1.0f / (1.0f + x * x);
}

// The fixed integrand of integration-{f32,bf16} as a functor; integration_integrand-* pass their own.
struct IntegrationFixed {
  __device__ float operator()(float x) const { return integration_f(x); }
};

template <typename T, typename F = IntegrationFixed>
__global__ void integration_reference_kernel(T* out, const T* lo, const T* hi, int B, int n, F f = {}) {
  int const b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  float const a = scientific_suite::to_float(lo[b]);
  float const h = (scientific_suite::to_float(hi[b]) - a) / static_cast<float>(n);
  double sum = 0.0;
  for (int j = 0; j <= n; ++j) {
    float const weight = (j == 0 || j == n) ? 1.0f : (j % 2 == 1 ? 4.0f : 2.0f);
    sum += static_cast<double>(weight * f(a + static_cast<float>(j) * h));
  }
  out[b] = scientific_suite::from_float<T>(static_cast<float>(sum * (static_cast<double>(h) / 3.0)));
}

template <typename T, typename F = IntegrationFixed>
void integration_reference(T* out, const T* lo, const T* hi, int B, int n, F f = {}) {
  if (B <= 0 || n <= 0) return;
  int const block = 128;
  int const grid = (B + block - 1) / block;
  integration_reference_kernel<T, F><<<grid, block>>>(out, lo, hi, B, n, f);
}
