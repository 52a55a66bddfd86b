// Reference batched 1D complex DFT on split data, shared by fft_split-{f32,bf16}: B transforms of N complex
// points each, the real parts in one array and the imaginary parts in another (point j of transform b is
// re[N*b + j] + i * im[N*b + j]; the outputs are split the same way). Forward, unnormalised:
// X[k] = sum_j x[j] * exp(-2*pi*i*j*k/N); the ifft_split tasks pass `inverse` (exponent +) and, where
// they ask for it, `normalize` (every output divided by N in double before the rounding). One thread per
// output X[k] computes the direct O(N) sum, as the interleaved fft reference (fft-common.cuh) does: the
// twiddle index m = j*k mod N is stepped exactly in integers and the twiddle taken with sincospif in FP32;
// the products are accumulated in double so that the reference stays the accurate side of the comparison. Any
// N works (no power-of-two restriction). O(N^2) per transform on purpose: the sizes keep the largest case to
// ~10 ms.
#pragma once
#include "element.cuh"

template <typename T>
__global__ void fft_split_reference_kernel(T* out_re, T* out_im, const T* in_re, const T* in_im, int N, int B,
                                           bool inverse, bool normalize) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(N) * B) return;
  long long const b = i / N;
  int const k = static_cast<int>(i % N);
  const T* xr = in_re + b * N;
  const T* xi = in_im + b * N;
  double re = 0.0;
  double im = 0.0;
  int m = 0;  // j*k mod N
  for (int j = 0; j < N; ++j) {
    float s = 0.0f;
    float c = 0.0f;
    sincospif((inverse ? 2.0f : -2.0f) * static_cast<float>(m) / static_cast<float>(N), &s, &c);
    float const a = scientific_suite::to_float(xr[j]);
    float const d = scientific_suite::to_float(xi[j]);
    re += static_cast<double>(a) * c - static_cast<double>(d) * s;
    im += static_cast<double>(a) * s + static_cast<double>(d) * c;
    m += k;
    if (m >= N) m -= N;
  }
  if (normalize) {
    re /= N;
    im /= N;
  }
  out_re[i] = scientific_suite::from_float<T>(static_cast<float>(re));
  out_im[i] = scientific_suite::from_float<T>(static_cast<float>(im));
}

template <typename T>
void fft_split_reference(T* out_re, T* out_im, const T* in_re, const T* in_im, int N, int B,
                         bool inverse = false, bool normalize = false) {
  long long const outputs = static_cast<long long>(N) * B;
  if (outputs <= 0) return;
  int const block = 256;
  auto const grid = static_cast<unsigned>((outputs + block - 1) / block);
  fft_split_reference_kernel<T><<<grid, block>>>(out_re, out_im, in_re, in_im, N, B, inverse, normalize);
}
