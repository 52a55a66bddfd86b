// Shared by conv2d_nchw-*, conv2d_nchw_bias_relu-*, conv2d_nchw_relu_bias_add-*, conv2d_nchw_strided-* and
// conv2d_nchw_strided_bias_relu-*: a CNN layer's forward convolution over NCHW tensors,
//   y[n][co][oy][ox] = sum_{ci < Cin, ky < K, kx < K} x[n][ci][oy + ky - pad][ox + kx - pad] *
//   w[co][ci][ky][kx]
// x: N x Cin x H x W, w: Cout x Cin x K x K, y: N x Cout x Ho x Wo with Ho = H + 2*pad - K + 1 (likewise Wo),
// stride 1, zero padding pad on every side (terms outside the image are 0; pad = 0 is a "valid"
// convolution, pad = K/2 with odd K a "same" one), no bias: torch.nn.functional.conv2d(x, w, padding=pad).
//
// Reference: conv-reference.cuh's kernel for a layer one plane deep, one thread per output, the window and
// the weights read straight from global memory, the products summed in double in (ci, ky, kx) order and
// rounded once to the element type. Naive on purpose: every input is loaded Cout*K*K times.
//
// Vendor baseline: cuDNN is not installed, so the layer is done the way frameworks did before it: an
// im2col kernel expands x into col[n][k][p] = x[n][ci][oy + ky - pad][ox + kx - pad] (k = (ci*K + ky)*K + kx,
// p = oy*Wo + ox; Cin*K*K x Ho*Wo per image, in a grow-only scratch buffer allocated once per size), then
// one strided-batched cuBLAS GEMM per call computes y[n] = w (Cout x Cin*K*K) * col[n] for every image
// (cublasSgemmStridedBatched in FP32, no TF32; cublasGemmStridedBatchedEx with BF16 data and
// CUBLAS_COMPUTE_32F). The time includes the im2col pass (it writes K*K times the input).
#pragma once
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>

#include "../algebra/cub-scratch.cuh"
#include "../algebra/cublas-handle.cuh"
#include "conv-reference.cuh"
#include "element.cuh"

// nn.Conv2d's geometry (groups 1): a KH x KW filter, strides, zero padding and dilations per axis. The
// square conv2d_nchw tasks use K x K, stride 1, `pad` on every side, dilation 1.
struct Conv2dGeometry {
  int KH, KW, SH, SW, PH, PW, DH, DW;
  // floor((in + 2*pad - dil*(k - 1) - 1) / stride) + 1, 0 where no window fits.
  __host__ __device__ static int extent(int in, int k, int stride, int pad, int dil) {
    int const span = in + 2 * pad - dil * (k - 1) - 1;
    return span < 0 || stride <= 0 ? 0 : span / stride + 1;
  }
  __host__ __device__ int out_h(int H) const { return extent(H, KH, SH, PH, DH); }
  __host__ __device__ int out_w(int W) const { return extent(W, KW, SW, PW, DW); }
  // As conv-reference.cuh's kernel reads a layer: one plane deep (D = 1), w[co][ci][ky][kx].
  static constexpr int KD = 1;
  __host__ __device__ static int out_d(int D) { return D; }
  __host__ __device__ static int source_d(int oz, int /*kz*/, int /*D*/) { return oz; }
  __host__ __device__ int source_h(int oy, int ky, int H) const {
    return scientific_suite::forward_source(oy, ky, H, SH, PH, DH);
  }
  __host__ __device__ int source_w(int ox, int kx, int W) const {
    return scientific_suite::forward_source(ox, kx, W, SW, PW, DW);
  }
  __host__ __device__ long long weight(int co, int ci, int Cin, int /*Cout*/, int /*kz*/, int ky,
                                       int kx) const {
    return ((static_cast<long long>(co) * Cin + ci) * KH + ky) * KW + kx;
  }
};

inline Conv2dGeometry square_conv(int K, int pad) {
  return Conv2dGeometry{K, K, 1, 1, pad, pad, 1, 1};
}

// conv2d_nchw_bias_relu-*: with `bias` (length Cout) the output is max(conv + bias[co], 0), nn.Conv2d with
// its bias and a ReLU after it; the reference adds the bias in double before the one rounding.
// conv2d_nchw_relu_bias_add-*: with `shift` (length Cout) as well, shift[co] is added after the ReLU
// (KernelBench level 2's Conv2d + ReLU + BiasAdd), also in double.
template <typename T>
void conv2d_nchw_reference(T* y, const T* x, const T* w, int N, int Cin, int Cout, int H, int W,
                           Conv2dGeometry g, const T* bias = nullptr, const T* shift = nullptr) {
  scientific_suite::conv_reference(y, x, w, N, Cin, Cout, 1, H, W, g, bias, shift);
}

template <typename T>
void conv2d_nchw_reference(T* y, const T* x, const T* w, int N, int Cin, int Cout, int H, int W, int K,
                           int pad, const T* bias = nullptr, const T* shift = nullptr) {
  conv2d_nchw_reference(y, x, w, N, Cin, Cout, H, W, square_conv(K, pad), bias, shift);
}

// The baseline's epilogue pass for conv2d_nchw_bias_relu-*: y = max(y + bias[co], 0) in FP32, one rounding;
// with `shift` (conv2d_nchw_relu_bias_add-*) y = max(y + bias[co], 0) + shift[co].
template <typename T>
__global__ void conv2d_nchw_bias_relu_kernel(T* y, const T* bias, int Cout, int plane, long long total,
                                             const T* shift = nullptr) {
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    int const co = static_cast<int>((i / plane) % Cout);
    float const v = scientific_suite::to_float(y[i]) + scientific_suite::to_float(bias[co]);
    float const r = v > 0.0f ? v : 0.0f;
    y[i] = scientific_suite::from_float<T>(shift != nullptr ? r + scientific_suite::to_float(shift[co]) : r);
  }
}

// col[n][k][p] for every image n, tap k < Cin*KH*KW and output position p < Ho*Wo (0 in the padding):
// positions along x of the grid (coalesced reads and writes), taps along y, images along z (grid-stride
// beyond 65535).
template <typename T>
__global__ void conv2d_nchw_im2col_kernel(T* col, const T* x, int N, int Cin, int H, int W, Conv2dGeometry g,
                                          int Ho, int Wo) {
  int const plane = Ho * Wo;
  int const taps = Cin * g.KH * g.KW;
  int const p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (p >= plane) return;
  int const oy = p / Wo;
  int const ox = p - oy * Wo;
  for (int n = static_cast<int>(blockIdx.z); n < N; n += static_cast<int>(gridDim.z)) {
    for (int k = static_cast<int>(blockIdx.y); k < taps; k += static_cast<int>(gridDim.y)) {
      int const ci = k / (g.KH * g.KW);
      int const ky = (k / g.KW) % g.KH;
      int const kx = k % g.KW;
      int const iy = oy * g.SH - g.PH + ky * g.DH;
      int const ix = ox * g.SW - g.PW + kx * g.DW;
      bool const inside = iy >= 0 && iy < H && ix >= 0 && ix < W;
      col[(static_cast<long long>(n) * taps + k) * plane + p] =
          inside ? x[((static_cast<long long>(n) * Cin + ci) * H + iy) * W + ix]
                 : scientific_suite::from_float<T>(0.0f);
    }
  }
}

inline cublasStatus_t conv2d_nchw_gemm(cublasHandle_t handle, float* y, float const* w, float const* col,
                                       int Cout, int plane, int taps, int N) {
  float const alpha = 1.0f;
  float const beta = 0.0f;
  // Row-major y[n] (Cout x plane) = w (Cout x taps) * col[n] (taps x plane); cuBLAS is column-major, so
  // y[n]^T = col[n]^T * w^T with the operands swapped and no transposition flags.
  return cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, plane, Cout, taps, &alpha, col, plane,
                                   static_cast<long long>(taps) * plane, w, taps, 0, &beta, y, plane,
                                   static_cast<long long>(Cout) * plane, N);
}

inline cublasStatus_t conv2d_nchw_gemm(cublasHandle_t handle, __nv_bfloat16* y, __nv_bfloat16 const* w,
                                       __nv_bfloat16 const* col, int Cout, int plane, int taps, int N) {
  float const alpha = 1.0f;
  float const beta = 0.0f;
  return cublasGemmStridedBatchedEx(
      handle, CUBLAS_OP_N, CUBLAS_OP_N, plane, Cout, taps, &alpha, col, CUDA_R_16BF, plane,
      static_cast<long long>(taps) * plane, w, CUDA_R_16BF, taps, 0, &beta, y, CUDA_R_16BF, plane,
      static_cast<long long>(Cout) * plane, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

template <typename T>
void conv2d_nchw_baseline_cublas(T* y, const T* x, const T* w, int N, int Cin, int Cout, int H, int W,
                                 Conv2dGeometry g, const T* bias = nullptr, const T* shift = nullptr) {
  int const Ho = g.out_h(H);
  int const Wo = g.out_w(W);
  if (N <= 0 || Cout <= 0 || Ho <= 0 || Wo <= 0) return;
  int const taps = Cin > 0 && g.KH > 0 && g.KW > 0 ? Cin * g.KH * g.KW : 0;
  int const plane = Ho * Wo;
  if (taps == 0) {  // an empty sum: y = 0
    cudaMemsetAsync(y, 0, sizeof(T) * static_cast<std::size_t>(N) * Cout * plane, cudaStreamPerThread);
  } else {
    cublasHandle_t const handle = kopt_suite::cublas_handle();
    if (handle == nullptr) return;
    std::size_t const elements = static_cast<std::size_t>(N) * taps * plane;
    auto* const col = static_cast<T*>(kopt_suite::cub_scratch(sizeof(T) * elements));
    if (col == nullptr) return;
    dim3 const grid(static_cast<unsigned>((plane + 255) / 256),
                    static_cast<unsigned>(taps < 65535 ? taps : 65535),
                    static_cast<unsigned>(N < 65535 ? N : 65535));
    conv2d_nchw_im2col_kernel<T><<<grid, 256, 0, cudaStreamPerThread>>>(col, x, N, Cin, H, W, g, Ho, Wo);
    cublasStatus_t const status = conv2d_nchw_gemm(handle, y, w, col, Cout, plane, taps, N);
    if (status != CUBLAS_STATUS_SUCCESS)
      std::fprintf(stderr, "baseline_cublas.cu: strided-batched GEMM failed (%d)\n",
                   static_cast<int>(status));
  }
  if (bias != nullptr) {  // a second pass over y: the bias, the ReLU and the shift (no cuDNN fused epilogue)
    long long const total = static_cast<long long>(N) * Cout * plane;
    conv2d_nchw_bias_relu_kernel<T><<<static_cast<unsigned>(total / 256 < 8192 ? (total + 255) / 256 : 8192),
                                      256, 0, cudaStreamPerThread>>>(y, bias, Cout, plane, total, shift);
  }
}

template <typename T>
void conv2d_nchw_baseline_cublas(T* y, const T* x, const T* w, int N, int Cin, int Cout, int H, int W, int K,
                                 int pad, const T* bias = nullptr, const T* shift = nullptr) {
  conv2d_nchw_baseline_cublas(y, x, w, N, Cin, Cout, H, W, square_conv(K, pad), bias, shift);
}
