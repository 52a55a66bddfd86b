// Reference n-body accelerations, shared by the nbody*-{f32,bf16} tasks: for every body i,
//   acc[i] = G * sum_j mass[j] * (pos[j] - pos[i]) / (|pos[j] - pos[i]|^2 + eps2)^(3/2)
// (G = 1 but in nbody_g-*, which pass their own; Plummer softening eps2 > 0, so the j = i term is 0 and needs
// no special case). Positions and accelerations are n x 3 arrays (x, y, z of body i at 3*i .. 3*i+2). One
// thread per body loops over all n bodies straight from global memory; each interaction is computed in FP32
// and the three sums are accumulated in double (an FP32 running sum over 2e5 terms drifts by ~1e-5 relative;
// the reference must be the accurate side), then rounded once to the storage type. Naive on purpose: no
// shared-memory tiling, every thread re-reads every body. nbody_xyzm-* keep (x, y, z, mass) per body in one n
// x 4 array: pos_stride 4, the masses at pos + 3 with stride 4. nbody_soa-* keep x, y, z and the
// accelerations' three components in arrays of their own: nbody_soa_reference interleaves them into a scratch
// buffer, runs the same kernel and splits the result.
#pragma once
#include "element.cuh"

template <typename T>
__global__ void nbody_reference_kernel(T* acc, const T* pos, const T* mass, int n, float eps2, int pos_stride,
                                       int mass_stride, float G) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  using scientific_suite::to_float;
  float const xi = to_float(pos[static_cast<long long>(pos_stride) * i]);
  float const yi = to_float(pos[static_cast<long long>(pos_stride) * i + 1]);
  float const zi = to_float(pos[static_cast<long long>(pos_stride) * i + 2]);
  double ax = 0.0;
  double ay = 0.0;
  double az = 0.0;
  for (int j = 0; j < n; ++j) {
    float const dx = to_float(pos[static_cast<long long>(pos_stride) * j]) - xi;
    float const dy = to_float(pos[static_cast<long long>(pos_stride) * j + 1]) - yi;
    float const dz = to_float(pos[static_cast<long long>(pos_stride) * j + 2]) - zi;
    float const r2 = dx * dx + dy * dy + dz * dz + eps2;
    float const inv_r = 1.0f / sqrtf(r2);
    float const s = to_float(mass[static_cast<long long>(mass_stride) * j]) * inv_r * inv_r * inv_r;
    ax += static_cast<double>(s * dx);
    ay += static_cast<double>(s * dy);
    az += static_cast<double>(s * dz);
  }
  ax *= static_cast<double>(G);
  ay *= static_cast<double>(G);
  az *= static_cast<double>(G);
  acc[3LL * i] = scientific_suite::from_float<T>(static_cast<float>(ax));
  acc[3LL * i + 1] = scientific_suite::from_float<T>(static_cast<float>(ay));
  acc[3LL * i + 2] = scientific_suite::from_float<T>(static_cast<float>(az));
}

template <typename T>
void nbody_reference(T* acc, const T* pos, const T* mass, int n, float eps2, int pos_stride = 3,
                     int mass_stride = 1, float G = 1.0f) {
  if (n <= 0) return;
  int const block = 128;
  int const grid = (n + block - 1) / block;
  nbody_reference_kernel<T><<<grid, block>>>(acc, pos, mass, n, eps2, pos_stride, mass_stride, G);
}

template <typename T>
__global__ void nbody_soa_pack_kernel(T* pos, const T* x, const T* y, const T* z, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  pos[3LL * i] = x[i];
  pos[3LL * i + 1] = y[i];
  pos[3LL * i + 2] = z[i];
}

template <typename T>
__global__ void nbody_soa_unpack_kernel(T* ax, T* ay, T* az, const T* acc, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  ax[i] = acc[3LL * i];
  ay[i] = acc[3LL * i + 1];
  az[i] = acc[3LL * i + 2];
}

// Positions and accelerations as three arrays each; the interleaved copies live in a scratch buffer grown
// when a call needs more, never freed.
template <typename T>
void nbody_soa_reference(T* ax, T* ay, T* az, int n, const T* x, const T* y, const T* z, const T* mass,
                         float eps2, float G = 1.0f) {
  if (n <= 0) return;
  static T* scratch = nullptr;
  static int capacity = 0;
  if (n > capacity) {
    if (scratch != nullptr) cudaFree(scratch);
    scratch = nullptr;
    capacity = 0;
    if (cudaMalloc(&scratch, 6 * static_cast<size_t>(n) * sizeof(T)) != cudaSuccess) return;
    capacity = n;
  }
  T* const pos = scratch;
  T* const acc = scratch + 3LL * n;
  int const block = 256;
  int const grid = (n + block - 1) / block;
  nbody_soa_pack_kernel<T><<<grid, block>>>(pos, x, y, z, n);
  nbody_reference(acc, pos, mass, n, eps2, 3, 1, G);
  nbody_soa_unpack_kernel<T><<<grid, block>>>(ax, ay, az, acc, n);
}
