// Strategy nbody_tiled: all-pairs softened gravity with shared-memory tiling of the bodies.
// Each thread owns IPT bodies (i = base + p * BLOCK). The block walks the bodies in tiles of BLOCK: every
// thread stages one body as (x, y, z, mass) in shared memory, then all threads run the tile's
// interactions out of shared memory (broadcast reads, inner loop unrolled UNROLL times), so each body is
// read from global memory once per block instead of once per thread. Padding bodies past n have mass 0
// and contribute nothing (r2 >= eps2 > 0). Each tile's contributions are summed in FP32 and folded into
// double accumulators per tile (the reference accumulates in double), so long sums do not drift.
// RSQRT = 1 uses rsqrtf (the task's tolerance allows 2 ulps), RSQRT = 0 uses 1 / sqrtf as the reference.
// Knobs: BLOCK threads (= bodies per tile), IPT bodies per thread, UNROLL, RSQRT.
//
// kopt:knob BLOCK = [64, 128, 256]
// kopt:knob IPT = [1, 2, 4]
// kopt:knob UNROLL = [1, 4, 8]
// kopt:knob RSQRT = [0, 1] resources=none
// kopt:launch grid=(ceil_div({{ARG3}}, BLOCK * IPT)) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 128
#endif
#ifndef IPT
#define IPT 2
#endif
#ifndef UNROLL
#define UNROLL 8
#endif
#ifndef RSQRT
#define RSQRT 1
#endif

constexpr int kNbodyUnroll = UNROLL;  // #pragma unroll needs a constant, not a macro

// KOPT_XYZM (a manifest `defines`): the bodies as (x, y, z, mass) in one array, as float4 particle arrays
// hold them (CUDA's nbody sample, GPU Gems 3); the entry takes (acc, pos, eps2, n), n fourth as the launch
// line's {{ARG3}} expects.
// KOPT_SOA (a manifest `defines`): positions and accelerations as three arrays each (structure of arrays);
// the entry takes (acc_x, acc_y, acc_z, n, x, y, z, mass, eps2), n fourth likewise.
// KOPT_G (a manifest `defines`, with any layout): the caller's gravitational constant, taken last
// (`float G`) and applied once per body to the double sums before the rounding.
#ifndef KOPT_G
#define KOPT_G 0
#endif
#ifndef KOPT_XYZM
#define KOPT_XYZM 0
#endif
#ifndef KOPT_SOA
#define KOPT_SOA 0
#endif
#if KOPT_XYZM
#define KOPT_POS_STRIDE 4
#define KOPT_MASS(j) pos[4 * (j) + 3]
#else
#define KOPT_POS_STRIDE 3
#define KOPT_MASS(j) mass[j]
#endif
#if KOPT_SOA
#define KOPT_PX(i) px[(i)]
#define KOPT_PY(i) py[(i)]
#define KOPT_PZ(i) pz[(i)]
#define KOPT_ACC_X(i) acc_x[(i)]
#define KOPT_ACC_Y(i) acc_y[(i)]
#define KOPT_ACC_Z(i) acc_z[(i)]
#else
#define KOPT_PX(i) pos[KOPT_POS_STRIDE * (i)]
#define KOPT_PY(i) pos[KOPT_POS_STRIDE * (i) + 1]
#define KOPT_PZ(i) pos[KOPT_POS_STRIDE * (i) + 2]
#define KOPT_ACC_X(i) acc[3 * (i)]
#define KOPT_ACC_Y(i) acc[3 * (i) + 1]
#define KOPT_ACC_Z(i) acc[3 * (i) + 2]
#endif

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}(
#if KOPT_SOA
              {{T}}* __restrict__ acc_x, {{T}}* __restrict__ acc_y, {{T}}* __restrict__ acc_z, int n,
              const {{T}}* __restrict__ px, const {{T}}* __restrict__ py, const {{T}}* __restrict__ pz,
              const {{T}}* __restrict__ mass, float eps2
#elif KOPT_XYZM
              {{T}}* __restrict__ acc, const {{T}}* __restrict__ pos, float eps2, int n
#else
              {{T}}* __restrict__ acc, const {{T}}* __restrict__ pos, const {{T}}* __restrict__ mass, int n,
              float eps2
#endif
#if KOPT_G
              , float G
#endif
              ) {
  using namespace kopt_strategy;
  __shared__ float4 s_body[BLOCK];
  long long const base = static_cast<long long>(blockIdx.x) * (BLOCK * IPT) + threadIdx.x;
  float xi[IPT];
  float yi[IPT];
  float zi[IPT];
  double ax[IPT];
  double ay[IPT];
  double az[IPT];
#pragma unroll
  for (int p = 0; p < IPT; ++p) {
    long long const i = base + p * BLOCK;
    bool const in = i < n;
    xi[p] = in ? to_float(KOPT_PX(i)) : 0.0f;
    yi[p] = in ? to_float(KOPT_PY(i)) : 0.0f;
    zi[p] = in ? to_float(KOPT_PZ(i)) : 0.0f;
    ax[p] = 0.0;
    ay[p] = 0.0;
    az[p] = 0.0;
  }
  for (long long j0 = 0; j0 < n; j0 += BLOCK) {
    long long const j = j0 + threadIdx.x;
    float4 body = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (j < n) {
      body = make_float4(to_float(KOPT_PX(j)), to_float(KOPT_PY(j)), to_float(KOPT_PZ(j)), to_float(KOPT_MASS(j)));
    }
    __syncthreads();  // the previous tile is no longer read
    s_body[threadIdx.x] = body;
    __syncthreads();
    float fx[IPT];
    float fy[IPT];
    float fz[IPT];
#pragma unroll
    for (int p = 0; p < IPT; ++p) {
      fx[p] = 0.0f;
      fy[p] = 0.0f;
      fz[p] = 0.0f;
    }
#pragma unroll kNbodyUnroll
    for (int t = 0; t < BLOCK; ++t) {
      float4 const b = s_body[t];
#pragma unroll
      for (int p = 0; p < IPT; ++p) {
        float const dx = b.x - xi[p];
        float const dy = b.y - yi[p];
        float const dz = b.z - zi[p];
        float const r2 = dx * dx + dy * dy + dz * dz + eps2;
#if RSQRT
        float const inv_r = rsqrtf(r2);
#else
        float const inv_r = 1.0f / sqrtf(r2);
#endif
        float const s = b.w * inv_r * inv_r * inv_r;
        fx[p] += s * dx;
        fy[p] += s * dy;
        fz[p] += s * dz;
      }
    }
#pragma unroll
    for (int p = 0; p < IPT; ++p) {
      ax[p] += static_cast<double>(fx[p]);
      ay[p] += static_cast<double>(fy[p]);
      az[p] += static_cast<double>(fz[p]);
    }
  }
#pragma unroll
  for (int p = 0; p < IPT; ++p) {
    long long const i = base + p * BLOCK;
#if KOPT_G
    ax[p] *= static_cast<double>(G);
    ay[p] *= static_cast<double>(G);
    az[p] *= static_cast<double>(G);
#endif
    if (i < n) {
      KOPT_ACC_X(i) = from_float<{{T}}>(static_cast<float>(ax[p]));
      KOPT_ACC_Y(i) = from_float<{{T}}>(static_cast<float>(ay[p]));
      KOPT_ACC_Z(i) = from_float<{{T}}>(static_cast<float>(az[p]));
    }
  }
}
