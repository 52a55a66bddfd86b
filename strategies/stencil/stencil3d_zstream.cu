// Strategy stencil3d_zstream: one Jacobi sweep of the 3D 7-point stencil (2.5D blocking). A block of
// BX x BY threads owns a tile of BX*VEC columns x BY rows of the x-y plane and marches through ZCHUNK
// consecutive z planes. Each thread keeps the values of its VEC columns at z-1, z and z+1 in registers
// (below / center / above) and prefetches z+2 one step ahead, so every input value is read from DRAM once
// per chunk. The center plane goes through a double-buffered shared-memory tile with a one-point halo
// (one barrier per plane): the y neighbours come from the tile rows above and below, the x neighbours
// from the thread's own registers, from the adjacent lanes by warp shuffles (a warp is 32 consecutive
// threads of one tile row) or, for the warp's edge lanes, from the tile. Halo values are prefetched one
// plane ahead as well. With VEC > 1 each thread moves VEC elements per access (one 4-16 byte load or
// store) when NX is a multiple of VEC and both buffers are aligned; otherwise a scalar path with bounds
// checks is taken (decided once, at run time). Boundary points are copied; interior points get
// (x-1 + x+1 + y-1 + y+1 + z-1 + z+1) * (1/6) in the reference's order of additions.
// Knobs: BX (threads in x, a multiple of 32), BY (threads in y), VEC (elements per thread in x),
// ZCHUNK (planes per block; more chunks fill the 132 SMs at small grids, longer ones re-read fewer halos).
// Default VEC = 8 (was 4): the H200 bench of 2026-11-30 ran BF16 at 38 % of DRAM with 8-byte BF16
// accesses (4 elements) and one plane of prefetch, i.e. ~8 bytes in flight per thread; 8 elements make
// every BF16 access 16 bytes and FP32 ones 32 bytes (83 % of DRAM at VEC = 4). Known limit: the
// prefetch is one plane deep and the rotation `above = next` waits for it at the end of each plane,
// so only one plane's loads overlap one plane's compute; a deeper register ring is the next step.
//
// kopt:knob BX = [32, 64, 128]
// kopt:knob BY = [2, 4, 8, 16]
// kopt:knob VEC = [1, 2, 4, 8]
// kopt:knob ZCHUNK = [16, 32, 64, 128, 256]
// kopt:constraint BX * BY >= 64 && BX * BY <= 512
// kopt:constraint BX * VEC <= 512
// kopt:constraint 2 * (BY + 2) * (BX * VEC + 8) * 4 <= 48 * 1024
// kopt:launch grid=(ceil_div({{ARG2}}, BX * VEC), ceil_div({{ARG3}}, BY), ceil_div({{ARG4}}, ZCHUNK)) block=(BX, BY) kernel={{ENTRY}}

#define KOPT_STENCIL_NEIGHBOURS 6
// kopt:include ../common/stencil_update.cuh

#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif
#ifndef VEC
#define VEC 8
#endif
#ifndef ZCHUNK
#define ZCHUNK 64
#endif

static_assert(BX % 32 == 0, "a warp is 32 consecutive threads of one tile row");
static_assert(BY >= 2, "the y halo needs 2 * BX threads");
static_assert(VEC == 1 || VEC == 2 || VEC == 4 || VEC == 8, "VEC is 1, 2, 4 or 8");

namespace stencil3d_zstream {

constexpr int kPitch = BX * VEC + 8;  // tile row: 3 unused, left halo, BX*VEC interior, right halo, pad
constexpr int kTile = (BY + 2) * kPitch;

// VEC floats between registers and a shared-memory address aligned to min(VEC, 4) floats.
__device__ __forceinline__ void smem_store(float* p, float const (&v)[VEC]) {
  if constexpr (VEC == 1) {
    p[0] = v[0];
  } else if constexpr (VEC == 2) {
    *reinterpret_cast<float2*>(p) = make_float2(v[0], v[1]);
  } else {
#pragma unroll
    for (int j = 0; j < VEC; j += 4)
      *reinterpret_cast<float4*>(p + j) = make_float4(v[j], v[j + 1], v[j + 2], v[j + 3]);
  }
}
__device__ __forceinline__ void smem_load(float (&v)[VEC], float const* p) {
  if constexpr (VEC == 1) {
    v[0] = p[0];
  } else if constexpr (VEC == 2) {
    float2 const a = *reinterpret_cast<float2 const*>(p);
    v[0] = a.x;
    v[1] = a.y;
  } else {
#pragma unroll
    for (int j = 0; j < VEC; j += 4) {
      float4 const a = *reinterpret_cast<float4 const*>(p + j);
      v[j] = a.x;
      v[j + 1] = a.y;
      v[j + 2] = a.z;
      v[j + 3] = a.w;
    }
  }
}

}  // namespace stencil3d_zstream

extern "C" __global__ void __launch_bounds__(BX * BY)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int NX, int NY, int NZ KOPT_STENCIL_PARAMS) {
  using namespace kopt_strategy;
  using namespace stencil3d_zstream;
  using Vec = Pack<{{T}}, VEC>;
  __shared__ __align__(16) float tile[2][kTile];

  int const tx = static_cast<int>(threadIdx.x);
  int const ty = static_cast<int>(threadIdx.y);
  int const tid = ty * BX + tx;
  int const lane = tx & 31;
  int const xb = static_cast<int>(blockIdx.x) * (BX * VEC);  // first column of the tile
  int const yb = static_cast<int>(blockIdx.y) * BY;          // first row of the tile
  int const x = xb + tx * VEC;                               // first of this thread's VEC columns
  int const y = yb + ty;
  int const z0 = static_cast<int>(blockIdx.z) * ZCHUNK;
  int const z1 = min(z0 + ZCHUNK, NZ);
  long long const plane = static_cast<long long>(NX) * NY;
  // Whole-vector accesses need every row to start on a VEC boundary and both buffers to be aligned.
  bool const vec_ok =
      NX % VEC == 0 && aligned_to(in, sizeof({{T}}) * VEC) && aligned_to(out, sizeof({{T}}) * VEC);

  // VEC values at columns xx .. xx+VEC-1 of row yy, plane zz; 0 outside the grid.
  auto load_vec = [&](float (&v)[VEC], int xx, int yy, int zz) {
    bool const row_in = yy >= 0 && yy < NY && zz >= 0 && zz < NZ;
    long long const base = static_cast<long long>(zz) * plane + static_cast<long long>(yy) * NX;
    if (vec_ok) {
      if (row_in && xx < NX) {
        Vec const p = load_pack<{{T}}, VEC>(in + base + xx);
#pragma unroll
        for (int j = 0; j < VEC; ++j) v[j] = to_float(p.v[j]);
      } else {
#pragma unroll
        for (int j = 0; j < VEC; ++j) v[j] = 0.0f;
      }
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        int const c = xx + j;
        v[j] = (row_in && c >= 0 && c < NX) ? to_float(in[base + c]) : 0.0f;
      }
    }
  };
  auto load_one = [&](int xx, int yy, int zz) -> float {
    bool const in_grid = xx >= 0 && xx < NX && yy >= 0 && yy < NY && zz >= 0 && zz < NZ;
    return in_grid ? to_float(in[static_cast<long long>(zz) * plane + static_cast<long long>(yy) * NX + xx])
                   : 0.0f;
  };

  // Halo roles. Threads 0 .. 2*BX-1 load the rows above and below the tile (VEC columns each, rows
  // yb-1 and yb+BY); the last 2*BY threads load the columns left and right of it (xb-1 and xb+BX*VEC).
  bool const has_yhalo = tid < 2 * BX;
  int const yh_slot = tid % BX;
  int const yh_row = tid < BX ? -1 : BY;  // relative to yb
  int const xh_k = tid - (BX * BY - 2 * BY);
  bool const has_xhalo = xh_k >= 0;
  int const xh_row = xh_k % BY;
  int const xh_col = xh_k < BY ? -1 : BX * VEC;  // relative to xb
  auto load_halo = [&](float (&hy)[VEC], float& hx, int zz) {
    if (has_yhalo) load_vec(hy, xb + yh_slot * VEC, yb + yh_row, zz);
    if (has_xhalo) hx = load_one(xb + xh_col, yb + xh_row, zz);
  };

  float below[VEC], center[VEC], above[VEC], next[VEC];
  float hy_cur[VEC], hy_next[VEC];
  float hx_cur = 0.0f, hx_next = 0.0f;
#pragma unroll
  for (int j = 0; j < VEC; ++j) {
    next[j] = 0.0f;
    hy_cur[j] = 0.0f;
    hy_next[j] = 0.0f;
  }
  load_vec(below, x, y, z0 - 1);
  load_vec(center, x, y, z0);
  load_vec(above, x, y, z0 + 1);
  load_halo(hy_cur, hx_cur, z0);

  bool const row_interior = y >= 1 && y < NY - 1;
  for (int z = z0; z < z1; ++z) {
    // Prefetch: plane z+2 becomes `above` at the next step; the halo of plane z+1 is stored next step.
    if (z + 2 <= z1) load_vec(next, x, y, z + 2);
    if (z + 1 < z1) load_halo(hy_next, hx_next, z + 1);

    float* t = tile[z & 1];  // double buffer: one barrier per plane is enough
    smem_store(t + (ty + 1) * kPitch + 4 + tx * VEC, center);
    if (has_yhalo) smem_store(t + (yh_row + 1) * kPitch + 4 + yh_slot * VEC, hy_cur);
    if (has_xhalo) t[(xh_row + 1) * kPitch + 4 + xh_col] = hx_cur;
    __syncthreads();

    float up[VEC], down[VEC];
    smem_load(up, t + ty * kPitch + 4 + tx * VEC);
    smem_load(down, t + (ty + 2) * kPitch + 4 + tx * VEC);
    float left_end = __shfl_up_sync(0xffffffffu, center[VEC - 1], 1);
    float right_end = __shfl_down_sync(0xffffffffu, center[0], 1);
    if (lane == 0) left_end = t[(ty + 1) * kPitch + 3 + tx * VEC];
    if (lane == 31) right_end = t[(ty + 1) * kPitch + 4 + tx * VEC + VEC];

    bool const interior_rz = row_interior && z >= 1 && z < NZ - 1;
    float res[VEC];
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      int const c = x + j;
      float const l = j == 0 ? left_end : center[j > 0 ? j - 1 : 0];
      float const r = j == VEC - 1 ? right_end : center[j < VEC - 1 ? j + 1 : 0];
      bool const interior = interior_rz && c >= 1 && c < NX - 1;
      float const sum = l + r + up[j] + down[j] + below[j] + above[j];
      res[j] = interior ? KOPT_STENCIL_UPDATE(center[j], sum) : center[j];
    }
    if (y < NY) {
      long long const base = static_cast<long long>(z) * plane + static_cast<long long>(y) * NX;
      if (vec_ok) {
        if (x < NX) {
          Vec p;
#pragma unroll
          for (int j = 0; j < VEC; ++j) p.v[j] = from_float<{{T}}>(res[j]);
          store_pack<{{T}}, VEC>(out + base + x, p);
        }
      } else {
#pragma unroll
        for (int j = 0; j < VEC; ++j)
          if (x + j < NX) out[base + x + j] = from_float<{{T}}>(res[j]);
      }
    }

#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      below[j] = center[j];
      center[j] = above[j];
      above[j] = next[j];
      hy_cur[j] = hy_next[j];
    }
    hx_cur = hx_next;
  }
}
