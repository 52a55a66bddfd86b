// Reference 2D Jacobi sweep, shared by stencil2d-*, stencil2d_heat-* and stencil2d_weighted-*: one thread per
// grid point of a row-major NY x NX grid. Interior points get the mean of their four neighbours,
//   out[y][x] = 0.25 * (in[y][x-1] + in[y][x+1] + in[y-1][x] + in[y+1][x]),
// boundary points (first/last row and column) are copied (Dirichlet boundary). FP32 math, one rounding
// to the storage type. Naive on purpose: every neighbour is a separate global load (no reuse in
// shared memory or registers).
// The heat tasks take an explicit diffusion step instead, out = c + r * (sum - 4 c) with c the point's own
// value and r the launcher's diffusion number (alpha dt / dx^2); the weighted ones out = c0 * c + c1 * sum
// with the launcher's weights; in FP32 in that order.
#pragma once
#include "element.cuh"

// How an interior point is updated: the mean of its neighbours, a heat step (a = r), or weighted (a = c0,
// b = c1).
enum class StencilUpdate { mean, heat, weighted };

template <typename T>
__global__ void stencil2d_reference_kernel(T* out, const T* in, int NX, int NY, StencilUpdate update, float a,
                                           float b) {
  int const x = blockIdx.x * blockDim.x + threadIdx.x;
  int const y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= NX || y >= NY) return;
  long long const i = static_cast<long long>(y) * NX + x;
  if (x == 0 || y == 0 || x == NX - 1 || y == NY - 1) {
    out[i] = in[i];
    return;
  }
  using scientific_suite::to_float;
  float const sum = to_float(in[i - 1]) + to_float(in[i + 1]) + to_float(in[i - NX]) + to_float(in[i + NX]);
  float const c = to_float(in[i]);
  out[i] = scientific_suite::from_float<T>(update == StencilUpdate::heat       ? c + a * (sum - 4.0f * c)
                                           : update == StencilUpdate::weighted ? a * c + b * sum
                                                                               : 0.25f * sum);
}

template <typename T>
void stencil2d_reference(T* out, const T* in, int NX, int NY, StencilUpdate update = StencilUpdate::mean,
                         float a = 0.0f, float b = 0.0f) {
  if (NX <= 0 || NY <= 0) return;
  dim3 const block(32, 8);
  dim3 const grid((NX + block.x - 1) / block.x, (NY + block.y - 1) / block.y);
  stencil2d_reference_kernel<T><<<grid, block>>>(out, in, NX, NY, update, a, b);
}
