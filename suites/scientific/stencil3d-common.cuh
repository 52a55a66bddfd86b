// Reference 3D Jacobi sweep, shared by stencil3d-*, stencil3d_heat-* and stencil3d_weighted-*: one thread per
// point of an NZ x NY x NX grid stored x-fastest (index (z*NY + y)*NX + x). Interior points get the mean of
// their six neighbours, out = (sum of the 6 face neighbours) * (1/6); boundary points (any coordinate at 0 or
// at its maximum) are copied (Dirichlet boundary). FP32 math, one rounding to the storage type. Naive on
// purpose: seven separate global loads per point, the z neighbours a whole plane away.
// The heat tasks take an explicit diffusion step instead, out = c + r * (sum - 6 c) with c the point's own
// value and r the launcher's diffusion number (alpha dt / dx^2); the weighted ones out = c0 * c + c1 * sum
// with the launcher's weights; in FP32 in that order.
#pragma once
#include "element.cuh"

// How an interior point is updated: the mean of its neighbours, a heat step (a = r), or weighted (a = c0,
// b = c1).
enum class StencilUpdate { mean, heat, weighted };

template <typename T>
__global__ void stencil3d_reference_kernel(T* out, const T* in, int NX, int NY, int NZ, StencilUpdate update,
                                           float a, float b) {
  int const x = blockIdx.x * blockDim.x + threadIdx.x;
  int const y = blockIdx.y * blockDim.y + threadIdx.y;
  int const z = blockIdx.z;
  if (x >= NX || y >= NY || z >= NZ) return;
  long long const plane = static_cast<long long>(NX) * NY;
  long long const i = z * plane + static_cast<long long>(y) * NX + x;
  if (x == 0 || y == 0 || z == 0 || x == NX - 1 || y == NY - 1 || z == NZ - 1) {
    out[i] = in[i];
    return;
  }
  using scientific_suite::to_float;
  float const sum = to_float(in[i - 1]) + to_float(in[i + 1]) + to_float(in[i - NX]) + to_float(in[i + NX]) +
                    to_float(in[i - plane]) + to_float(in[i + plane]);
  float const c = to_float(in[i]);
  out[i] = scientific_suite::from_float<T>(update == StencilUpdate::heat       ? c + a * (sum - 6.0f * c)
                                           : update == StencilUpdate::weighted ? a * c + b * sum
                                                                               : sum * (1.0f / 6.0f));
}

template <typename T>
void stencil3d_reference(T* out, const T* in, int NX, int NY, int NZ,
                         StencilUpdate update = StencilUpdate::mean, float a = 0.0f, float b = 0.0f) {
  if (NX <= 0 || NY <= 0 || NZ <= 0) return;
  dim3 const block(32, 8, 1);
  dim3 const grid((NX + block.x - 1) / block.x, (NY + block.y - 1) / block.y, NZ);
  stencil3d_reference_kernel<T><<<grid, block>>>(out, in, NX, NY, NZ, update, a, b);
}
