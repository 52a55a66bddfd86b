// Reference batched 1D complex DFT, shared by fft-{f32,bf16}: B transforms of N complex points each,
// stored interleaved (re, im) and contiguous (transform b occupies elements 2*N*b .. 2*N*(b+1)-1).
// Forward, unnormalised: X[k] = sum_j x[j] * exp(-2*pi*i*j*k/N); the ifft tasks pass `inverse` (the sign
// of the exponent +) and `normalize` (every output divided by N, in double, before the rounding). One thread
// per output X[k] computes the direct O(N) sum: the twiddle index m = j*k mod N is stepped exactly in
// integers and the twiddle taken with sincospif in FP32; the products are accumulated in double so that the
// reference stays the accurate side of the comparison (an FP32 running sum over N = 8192 terms drifts by
// ~1e-6 of the largest output). Any N works (no power-of-two restriction). O(N^2) per transform on purpose:
// the sizes keep the largest case to ~10 ms.
#pragma once
#include "element.cuh"

template <typename T>
__global__ void fft_reference_kernel(T* out, const T* in, int N, int B, bool inverse, bool normalize) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(N) * B) return;
  long long const b = i / N;
  int const k = static_cast<int>(i % N);
  const T* x = in + 2 * b * N;
  double re = 0.0;
  double im = 0.0;
  int m = 0;  // j*k mod N
  for (int j = 0; j < N; ++j) {
    float s = 0.0f;
    float c = 0.0f;
    sincospif((inverse ? 2.0f : -2.0f) * static_cast<float>(m) / static_cast<float>(N), &s, &c);
    float const xr = scientific_suite::to_float(x[2 * j]);
    float const xi = scientific_suite::to_float(x[2 * j + 1]);
    re += static_cast<double>(xr) * c - static_cast<double>(xi) * s;
    im += static_cast<double>(xr) * s + static_cast<double>(xi) * c;
    m += k;
    if (m >= N) m -= N;
  }
  if (normalize) {
    re /= N;
    im /= N;
  }
  out[2 * i] = scientific_suite::from_float<T>(static_cast<float>(re));
  out[2 * i + 1] = scientific_suite::from_float<T>(static_cast<float>(im));
}

template <typename T>
void fft_reference(T* out, const T* in, int N, int B, bool inverse = false, bool normalize = false) {
  long long const outputs = static_cast<long long>(N) * B;
  if (outputs <= 0) return;
  int const block = 256;
  auto const grid = static_cast<unsigned>((outputs + block - 1) / block);
  fft_reference_kernel<T><<<grid, block>>>(out, in, N, B, inverse, normalize);
}
