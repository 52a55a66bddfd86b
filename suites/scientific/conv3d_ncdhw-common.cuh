// Shared by conv3d_ncdhw-* and conv3d_ncdhw_bias_relu-*: nn.Conv3d's forward convolution over NCDHW
// tensors, groups 1,
//   y[n][co][oz][oy][ox] = sum over ci < Cin, kz < KD, ky < KH, kx < KW of
//     x[n][ci][oz*SD - PD + kz*DD][oy*SH - PH + ky*DH][ox*SW - PW + kx*DW] * w[co][ci][kz][ky][kx]
// x: N x Cin x D x H x W, w: Cout x Cin x KD x KH x KW, y: N x Cout x Do x Ho x Wo with
// Do = (D + 2*PD - DD*(KD - 1) - 1) / SD + 1 (likewise Ho, Wo): strides, zero padding and dilations per axis
// (terms outside the volume are 0), no bias: torch.nn.functional.conv3d(x, w, stride=(SD, SH, SW),
// padding=(PD, PH, PW), dilation=(DD, DH, DW)). With D = KD = 1 it is conv2d_nchw-common.cuh's layer.
//
// Reference: conv-reference.cuh's kernel, one thread per output, the window and the weights read straight
// from global memory, the products summed in double in (ci, kz, ky, kx) order and rounded once to the element
// type. Naive on purpose: every input is loaded about Cout*KD*KH*KW / (SD*SH*SW) times.
//
// Vendor baseline: cuDNN is not installed, so the layer is done as conv2d_nchw-common.cuh does the 2-D one: a
// vol2col kernel expands x into col[n][k][p] = x[n][ci][oz*SD - PD + kz*DD][oy*SH - PH + ky*DH][ox*SW - PW +
// kx*DW] (k = ((ci*KD + kz)*KH + ky)*KW + kx, p = (oz*Ho + oy)*Wo + ox; Cin*KD*KH*KW x Do*Ho*Wo per image, 0
// in the padding), then one strided-batched cuBLAS GEMM computes y[n] = w (Cout x Cin*KD*KH*KW) * col[n] for
// the images of the pass (conv2d_nchw_gemm: cublasSgemmStridedBatched in FP32, no TF32;
// cublasGemmStridedBatchedEx with BF16 data and CUBLAS_COMPUTE_32F). col is KD*KH*KW / (SD*SH*SW) times the
// input and a 3-D layer's can run to gigabytes, so it lives in a grow-only scratch buffer (cub_scratch)
// bounded by kConv3dColBytes: the whole batch in one pass where its col fits in 1 GiB, otherwise as few
// passes as keep it under that, of equal image counts (one image per pass when even one image's col is
// larger). The time includes the vol2col passes (they write KD*KH*KW / (SD*SH*SW) times the input).
#pragma once
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>

#include "conv-reference.cuh"
#include "conv2d_nchw-common.cuh"
#include "element.cuh"

// nn.Conv3d's geometry (groups 1): a KD x KH x KW filter, strides, zero padding and dilations per axis.
struct Conv3dGeometry {
  int KD, KH, KW, SD, SH, SW, PD, PH, PW, DD, DH, DW;
  // floor((in + 2*pad - dil*(k - 1) - 1) / stride) + 1, 0 where no window fits or stride <= 0.
  __host__ __device__ int out_d(int D) const { return Conv2dGeometry::extent(D, KD, SD, PD, DD); }
  __host__ __device__ int out_h(int H) const { return Conv2dGeometry::extent(H, KH, SH, PH, DH); }
  __host__ __device__ int out_w(int W) const { return Conv2dGeometry::extent(W, KW, SW, PW, DW); }
  // The input index tap k of output o reads along each axis (conv-reference.cuh).
  __host__ __device__ int source_d(int oz, int kz, int D) const {
    return scientific_suite::forward_source(oz, kz, D, SD, PD, DD);
  }
  __host__ __device__ int source_h(int oy, int ky, int H) const {
    return scientific_suite::forward_source(oy, ky, H, SH, PH, DH);
  }
  __host__ __device__ int source_w(int ox, int kx, int W) const {
    return scientific_suite::forward_source(ox, kx, W, SW, PW, DW);
  }
  // w[co][ci][kz][ky][kx]: Cout x Cin x KD x KH x KW.
  __host__ __device__ long long weight(int co, int ci, int Cin, int /*Cout*/, int kz, int ky, int kx) const {
    return (((static_cast<long long>(co) * Cin + ci) * KD + kz) * KH + ky) * KW + kx;
  }
};

template <typename T>
void conv3d_ncdhw_reference(T* y, const T* x, const T* w, int N, int Cin, int Cout, int D, int H, int W,
                            Conv3dGeometry g, const T* bias = nullptr, const T* shift = nullptr) {
  scientific_suite::conv_reference(y, x, w, N, Cin, Cout, D, H, W, g, bias, shift);
}

// col[n][k][p] for the N images of a pass (x and col start at its first image), tap k < Cin*KD*KH*KW and
// output position p < Do*Ho*Wo (0 in the padding): positions along x of the grid (coalesced reads and
// writes), taps along y, images along z (grid-stride beyond 65535).
template <typename T>
__global__ void conv3d_ncdhw_vol2col_kernel(T* col, const T* x, int N, int Cin, int D, int H, int W,
                                            Conv3dGeometry g, int Do, int Ho, int Wo) {
  int const plane = Do * Ho * Wo;
  int const taps = Cin * g.KD * g.KH * g.KW;
  int const p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (p >= plane) return;
  int const oz = p / (Ho * Wo);
  int const oy = (p / Wo) % Ho;
  int const ox = p % Wo;
  for (int n = static_cast<int>(blockIdx.z); n < N; n += static_cast<int>(gridDim.z)) {
    for (int k = static_cast<int>(blockIdx.y); k < taps; k += static_cast<int>(gridDim.y)) {
      int const ci = k / (g.KD * g.KH * g.KW);
      int const kz = (k / (g.KH * g.KW)) % g.KD;
      int const ky = (k / g.KW) % g.KH;
      int const kx = k % g.KW;
      int const iz = g.source_d(oz, kz, D);
      int const iy = g.source_h(oy, ky, H);
      int const ix = g.source_w(ox, kx, W);
      bool const inside = iz >= 0 && iy >= 0 && ix >= 0;
      col[(static_cast<long long>(n) * taps + k) * plane + p] =
          inside ? x[(((static_cast<long long>(n) * Cin + ci) * D + iz) * H + iy) * W + ix]
                 : scientific_suite::from_float<T>(0.0f);
    }
  }
}

// The baseline's bound on its vol2col scratch (see the top of this file): 1 GiB. The largest size case's FP32
// col, conv3d_ncdhw-f32's `video` (4 images of 1728 x 50176), is 1.39 GB: two passes of two images.
inline constexpr std::size_t kConv3dColBytes = std::size_t{1} << 30;

// How many images one vol2col + GEMM pass takes: all N where their col fits in kConv3dColBytes, otherwise
// the fewest passes that keep under it, split evenly (ceil(N / passes) images each; at least one).
inline int conv3d_ncdhw_images_per_pass(int N, std::size_t image_col_bytes) {
  std::size_t const fit =
      image_col_bytes == 0 ? static_cast<std::size_t>(N) : kConv3dColBytes / image_col_bytes;
  int const most = fit < 1 ? 1 : fit < static_cast<std::size_t>(N) ? static_cast<int>(fit) : N;
  int const passes = (N + most - 1) / most;
  return (N + passes - 1) / passes;
}

template <typename T>
void conv3d_ncdhw_baseline_cublas(T* y, const T* x, const T* w, int N, int Cin, int Cout, int D, int H, int W,
                                  Conv3dGeometry g, const T* bias = nullptr, const T* shift = nullptr) {
  int const Do = g.out_d(D);
  int const Ho = g.out_h(H);
  int const Wo = g.out_w(W);
  if (N <= 0 || Cout <= 0 || Do <= 0 || Ho <= 0 || Wo <= 0) return;
  int const taps = Cin > 0 && g.KD > 0 && g.KH > 0 && g.KW > 0 ? Cin * g.KD * g.KH * g.KW : 0;
  int const plane = Do * Ho * Wo;
  if (taps == 0) {  // an empty sum: y = 0
    cudaMemsetAsync(y, 0, sizeof(T) * static_cast<std::size_t>(N) * Cout * plane, cudaStreamPerThread);
  } else {
    cublasHandle_t const handle = kopt_suite::cublas_handle();
    if (handle == nullptr) return;
    std::size_t const image_col = sizeof(T) * static_cast<std::size_t>(taps) * plane;
    int const per_pass = conv3d_ncdhw_images_per_pass(N, image_col);
    auto* const col = static_cast<T*>(kopt_suite::cub_scratch(image_col * per_pass));
    if (col == nullptr) return;
    std::size_t const x_image = static_cast<std::size_t>(Cin) * D * H * W;
    std::size_t const y_image = static_cast<std::size_t>(Cout) * plane;
    for (int n0 = 0; n0 < N; n0 += per_pass) {
      int const images = N - n0 < per_pass ? N - n0 : per_pass;
      dim3 const grid(static_cast<unsigned>((plane + 255) / 256),
                      static_cast<unsigned>(taps < 65535 ? taps : 65535),
                      static_cast<unsigned>(images < 65535 ? images : 65535));
      conv3d_ncdhw_vol2col_kernel<T>
          <<<grid, 256, 0, cudaStreamPerThread>>>(col, x + n0 * x_image, images, Cin, D, H, W, g, Do, Ho, Wo);
      cublasStatus_t const status =
          conv2d_nchw_gemm(handle, y + n0 * y_image, w, col, Cout, plane, taps, images);
      if (status != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "baseline_cublas.cu: strided-batched GEMM failed (%d)\n",
                     static_cast<int>(status));
        return;
      }
    }
  }
  if (bias != nullptr) {  // a second pass over y: the bias, the ReLU and the shift (the 2-D kernel)
    long long const total = static_cast<long long>(N) * Cout * plane;
    conv2d_nchw_bias_relu_kernel<T><<<static_cast<unsigned>(total / 256 < 8192 ? (total + 255) / 256 : 8192),
                                      256, 0, cudaStreamPerThread>>>(y, bias, Cout, plane, total, shift);
  }
}
