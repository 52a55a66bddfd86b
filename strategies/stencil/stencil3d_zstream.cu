// Strategy stencil3d_zstream: one Jacobi sweep of the 3D 7-point stencil (2.5D blocking). A block of
// BX x BY threads owns a tile of BX*VEC columns x BY rows of the x-y plane and marches through ZCHUNK
// consecutive z planes. Each thread keeps the values of its VEC columns at z-1, z and z+1 in registers
// (below / center / above) and prefetches PF planes ahead of z+1, so every input value is read from DRAM once
// per chunk. The center plane goes through a double-buffered shared-memory tile with a one-point halo
// (one barrier per plane): the y neighbours come from the tile rows above and below, the x neighbours
// from the thread's own registers, from the adjacent lanes by warp shuffles (a warp is 32 consecutive
// threads of one tile row) or, for the warp's edge lanes, from the tile. Halo values are prefetched PF
// planes ahead as well. With VEC > 1 each thread moves VEC elements per access (one 4-16 byte load or
// store) when NX is a multiple of VEC and both buffers are aligned; otherwise a scalar path with bounds
// checks is taken (decided once, at run time). Boundary points are copied; interior points get
// (x-1 + x+1 + y-1 + y+1 + z-1 + z+1) * (1/6) in the reference's order of additions.
// Knobs: BX (threads in x, a multiple of 32), BY (threads in y), VEC (elements per thread in x),
// ZCHUNK (planes per block; more chunks fill the 132 SMs at small grids, longer ones re-read fewer halos).
// Default VEC = 8 (was 4): the H200 bench of 2026-11-30 ran BF16 at 38 % of DRAM with 8-byte BF16
// accesses (4 elements) and one plane of prefetch, i.e. ~8 bytes in flight per thread; 8 elements make
// every BF16 access 16 bytes and FP32 ones 32 bytes (83 % of DRAM at VEC = 4).
// PF (planes prefetched ahead of `above`): 1 is the original loop, where the rotation `above = next` at
// the end of each plane waits for the plane loaded at its start, so one plane of loads (16 bytes a thread
// for BF16 at VEC = 8, 12 KB an SM at 3 blocks) overlaps one plane of work: BF16 measured 41-54 % of DRAM,
// latency-bound. PF = 2 keeps two planes (and two halo planes) in flight: the loop is unrolled by two and
// the loads alternate between two raw register packs (T, not float: 4 registers for 8 BF16), each one
// converted a whole plane after it was issued, so no instruction waits on a load issued in the same step.
// SWZ (shared tile layout): 0 is the original (pitch BX*VEC + 8 words, each thread's VEC floats
// contiguous); 1 pads the pitch to BX*VEC + 12 (12 mod 32 words, so the 2*BY x-halo column stores of one
// warp hit distinct banks up to BY = 8, where 8 mod 32 made them 2-way, 4-way at BY = 16) and, at
// VEC = 8, splits each thread's 8 floats into two float4 chunks BX*4 words apart, so a warp's 16-byte
// accesses walk 512 consecutive bytes (4 wavefronts) instead of a 32-byte stride (8 wavefronts, 2-way)
// for the centre store and both neighbour-row loads. MINB (0: none) is __launch_bounds__' minimum blocks
// per SM: ptxas caps registers at 65536 / (MINB * BX * BY). At VEC = 8 and 256 threads (sm_90) PF = 1
// uses 78 registers (3 blocks an SM; 85 with SWZ = 1, 80 and 8-12 bytes of spill at MINB = 3), PF = 2
// 91 for BF16 and 114-116 for FP32 (2 blocks); MINB = 3 holds PF = 2 BF16 at 80 without spills.
//
// kopt:knob BX = [32, 64, 128]
// kopt:knob BY = [2, 4, 8, 16]
// kopt:knob VEC = [1, 2, 4, 8]
// kopt:knob ZCHUNK = [16, 32, 64, 128, 256]
// kopt:knob PF = [1, 2]
// kopt:knob SWZ = [0, 1] resources=none
// kopt:knob MINB = [0, 2, 3, 4] resources=none
// kopt:constraint BX * BY >= 64 && BX * BY <= 512
// kopt:constraint BX * VEC <= 512
// kopt:constraint 2 * (BY + 2) * (BX * VEC + 8 + 4 * SWZ) * 4 <= 48 * 1024
// kopt:constraint MINB * BX * BY <= 2048
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
#ifndef PF
#define PF 1
#endif
#ifndef SWZ
#define SWZ 0
#endif
#ifndef MINB
#define MINB 0
#endif

static_assert(BX % 32 == 0, "a warp is 32 consecutive threads of one tile row");
static_assert(BY >= 2, "the y halo needs 2 * BX threads");
static_assert(VEC == 1 || VEC == 2 || VEC == 4 || VEC == 8, "VEC is 1, 2, 4 or 8");
static_assert(PF == 1 || PF == 2, "PF is 1 or 2 planes");
static_assert(SWZ == 0 || SWZ == 1, "SWZ is 0 or 1");

namespace stencil3d_zstream {

// Tile row: 3 unused, left halo, BX*VEC interior, right halo, pad (3 words, 7 with SWZ).
constexpr int kPitch = BX * VEC + 8 + 4 * SWZ;
constexpr int kTile = (BY + 2) * kPitch;
// SWZ at VEC = 8: chunk h (floats 4h .. 4h+3) of thread slot s sits at 4 + h * kChunk + 4 * s, so the
// interior of a row holds every slot's first chunk, then every slot's second one.
constexpr bool kSplit = SWZ && VEC == 8;
constexpr int kChunk = kSplit ? BX * 4 : 4;
static_assert(kPitch % 4 == 0, "float4 rows");

// Thread slot s's first value sits at word 4 + s * kSlot of a tile row.
constexpr int kSlot = kSplit ? 4 : VEC;
// Word offsets of the columns left of slot s's first value and right of its last (halo columns at the
// tile's edges).
__device__ __forceinline__ int left_pos(int s) {
  if constexpr (kSplit) return s == 0 ? 3 : 3 + kChunk + 4 * s;
  else return 3 + s * VEC;
}
__device__ __forceinline__ int right_pos(int s) {
  if constexpr (kSplit) return s == BX - 1 ? 4 + BX * VEC : 4 + 4 * (s + 1);
  else return 4 + s * VEC + VEC;
}

// VEC floats between registers and a shared-memory address aligned to min(VEC, 4) floats (chunks of 4
// kChunk words apart).
__device__ __forceinline__ void smem_store(float* p, float const (&v)[VEC]) {
  if constexpr (VEC == 1) {
    p[0] = v[0];
  } else if constexpr (VEC == 2) {
    *reinterpret_cast<float2*>(p) = make_float2(v[0], v[1]);
  } else {
#pragma unroll
    for (int j = 0; j < VEC; j += 4)
      *reinterpret_cast<float4*>(p + j / 4 * kChunk) = make_float4(v[j], v[j + 1], v[j + 2], v[j + 3]);
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
      float4 const a = *reinterpret_cast<float4 const*>(p + j / 4 * kChunk);
      v[j] = a.x;
      v[j + 1] = a.y;
      v[j + 2] = a.z;
      v[j + 3] = a.w;
    }
  }
}

// PF = 2's register ring: VEC elements of T as 32-bit words (a BF16 pair per word; one BF16 in the low
// half of a word at VEC = 1), so a pending 16-byte load occupies 4 registers and nothing touches them
// until the plane is needed.
template <typename T>
constexpr int kRawWords = (static_cast<int>(sizeof(T)) * VEC + 3) / 4;
__device__ __forceinline__ unsigned bits_of(float v) { return __float_as_uint(v); }
__device__ __forceinline__ unsigned bits_of(__nv_bfloat16 v) { return __bfloat16_as_ushort(v); }
template <typename T>
__device__ __forceinline__ float bits_to_float(unsigned b) {
  return sizeof(T) == 4 ? __uint_as_float(b) : __uint_as_float(b << 16);
}
// Element j (a compile-time index after unrolling) of a raw pack, as float.
template <typename T, int W>
__device__ __forceinline__ float raw_get(kopt_strategy::Pack<unsigned, W> const& r, int j) {
  if constexpr (sizeof(T) == 4) return __uint_as_float(r.v[j]);
  else return __uint_as_float((j & 1) ? (r.v[j >> 1] & 0xffff0000u) : (r.v[j >> 1] << 16));
}
// Element j of a raw pack from its storage value (the word is zero before).
template <typename T, int W>
__device__ __forceinline__ void raw_put(kopt_strategy::Pack<unsigned, W>& r, int j, T v) {
  if constexpr (sizeof(T) == 4) r.v[j] = bits_of(v);
  else r.v[j >> 1] |= bits_of(v) << ((j & 1) * 16);
}
// VEC elements at p (aligned to their size) as raw words: one 4-32 byte load, or 2 bytes at VEC = 1 BF16.
template <typename T>
__device__ __forceinline__ kopt_strategy::Pack<unsigned, kRawWords<T>> load_raw_words(T const* p) {
  if constexpr (sizeof(T) * VEC >= 4) {
    return kopt_strategy::load_pack<unsigned, kRawWords<T>>(reinterpret_cast<unsigned const*>(p));
  } else {
    kopt_strategy::Pack<unsigned, kRawWords<T>> r;
    r.v[0] = *reinterpret_cast<unsigned short const*>(p);
    return r;
  }
}

}  // namespace stencil3d_zstream

#if MINB > 0
#define KOPT_ZSTREAM_BOUNDS __launch_bounds__(BX * BY, MINB)
#else
#define KOPT_ZSTREAM_BOUNDS __launch_bounds__(BX * BY)
#endif

extern "C" __global__ void KOPT_ZSTREAM_BOUNDS
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

  // Halo roles. Threads 0 .. 2*BX-1 load the rows above and below the tile (VEC columns each, rows
  // yb-1 and yb+BY); the last 2*BY threads load the columns left and right of it (xb-1 and xb+BX*VEC).
  bool const has_yhalo = tid < 2 * BX;
  int const yh_slot = tid % BX;
  int const yh_row = tid < BX ? -1 : BY;  // relative to yb
  int const xh_k = tid - (BX * BY - 2 * BY);
  bool const has_xhalo = xh_k >= 0;
  int const xh_row = xh_k % BY;
  int const xh_col = xh_k < BY ? -1 : BX * VEC;  // relative to xb

#if PF == 1
  auto load_one = [&](int xx, int yy, int zz) -> float {
    bool const in_grid = xx >= 0 && xx < NX && yy >= 0 && yy < NY && zz >= 0 && zz < NZ;
    return in_grid ? to_float(in[static_cast<long long>(zz) * plane + static_cast<long long>(yy) * NX + xx])
                   : 0.0f;
  };
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
    smem_store(t + (ty + 1) * kPitch + 4 + tx * kSlot, center);
    if (has_yhalo) smem_store(t + (yh_row + 1) * kPitch + 4 + yh_slot * kSlot, hy_cur);
    if (has_xhalo) t[(xh_row + 1) * kPitch + 4 + xh_col] = hx_cur;
    __syncthreads();

    float up[VEC], down[VEC];
    smem_load(up, t + ty * kPitch + 4 + tx * kSlot);
    smem_load(down, t + (ty + 2) * kPitch + 4 + tx * kSlot);
    float left_end = __shfl_up_sync(0xffffffffu, center[VEC - 1], 1);
    float right_end = __shfl_down_sync(0xffffffffu, center[0], 1);
    if (lane == 0) left_end = t[(ty + 1) * kPitch + left_pos(tx)];
    if (lane == 31) right_end = t[(ty + 1) * kPitch + right_pos(tx)];

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
#else
  float below[VEC], center[VEC], above[VEC];
  bool const row_interior = y >= 1 && y < NY - 1;

  // PF = 2: loads stay in the storage type, as 32-bit words (BF16 pairs), until the plane that needs them
  // is converted; two planes (and two halo planes) in flight.
  using Raw = Pack<unsigned, kRawWords<{{T}}>>;
  auto load_raw = [&](Raw& v, int xx, int yy, int zz) {
    bool const row_in = yy >= 0 && yy < NY && zz >= 0 && zz < NZ;
    long long const base = static_cast<long long>(zz) * plane + static_cast<long long>(yy) * NX;
#pragma unroll
    for (int w = 0; w < kRawWords<{{T}}>; ++w) v.v[w] = 0u;
    if (vec_ok) {
      if (row_in && xx < NX) v = load_raw_words(in + base + xx);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        int const c = xx + j;
        if (row_in && c >= 0 && c < NX) raw_put(v, j, in[base + c]);
      }
    }
  };
  auto load_halo_raw = [&](Raw& hy, unsigned& hx, int zz) {
    if (has_yhalo) load_raw(hy, xb + yh_slot * VEC, yb + yh_row, zz);
    if (has_xhalo) {
      int const xx = xb + xh_col, yy = yb + xh_row;
      bool const in_grid = xx >= 0 && xx < NX && yy >= 0 && yy < NY && zz >= 0 && zz < NZ;
      long long const i = static_cast<long long>(zz) * plane + static_cast<long long>(yy) * NX + xx;
      hx = in_grid ? bits_of(in[i]) : 0u;
    }
  };

  // Ring: pa/pb take planes z+3 at even/odd steps of the chunk (pb starts with z0+2), ha/hb the halo of
  // planes z+2 (ha starts with the halo of z0, hb with that of z0+1).
  Raw pa, pb, ha, hb;
  unsigned hxa = 0u, hxb = 0u;
#pragma unroll
  for (int w = 0; w < kRawWords<{{T}}>; ++w) {
    pa.v[w] = 0u;
    pb.v[w] = 0u;
    ha.v[w] = 0u;
    hb.v[w] = 0u;
  }
  load_vec(below, x, y, z0 - 1);
  load_vec(center, x, y, z0);
  load_vec(above, x, y, z0 + 1);
  if (z0 + 2 <= z1) load_raw(pb, x, y, z0 + 2);
  load_halo_raw(ha, hxa, z0);
  if (z0 + 1 < z1) load_halo_raw(hb, hxb, z0 + 1);

  // Plane z once its centre and halo are in tile t: barrier, neighbours, update, store to out.
  auto finish_plane = [&](int z, float* t) {
    __syncthreads();

    float up[VEC], down[VEC];
    smem_load(up, t + ty * kPitch + 4 + tx * kSlot);
    smem_load(down, t + (ty + 2) * kPitch + 4 + tx * kSlot);
    float left_end = __shfl_up_sync(0xffffffffu, center[VEC - 1], 1);
    float right_end = __shfl_down_sync(0xffffffffu, center[0], 1);
    if (lane == 0) left_end = t[(ty + 1) * kPitch + left_pos(tx)];
    if (lane == 31) right_end = t[(ty + 1) * kPitch + right_pos(tx)];

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
  };

  // One plane: `fill` receives plane z+3, `ready` (loaded a step earlier) becomes `above`, `hy`/`hx` hold
  // this plane's halo and then receive that of plane z+2.
  auto step = [&](int z, Raw& fill, Raw const& ready, Raw& hy, unsigned& hx) {
    if (z + 3 <= z1) load_raw(fill, x, y, z + 3);
    float* t = tile[z & 1];  // double buffer: one barrier per plane is enough
    smem_store(t + (ty + 1) * kPitch + 4 + tx * kSlot, center);
    if (has_yhalo) {
      float h[VEC];
#pragma unroll
      for (int j = 0; j < VEC; ++j) h[j] = raw_get<{{T}}>(hy, j);
      smem_store(t + (yh_row + 1) * kPitch + 4 + yh_slot * kSlot, h);
    }
    if (has_xhalo) t[(xh_row + 1) * kPitch + 4 + xh_col] = bits_to_float<{{T}}>(hx);
    if (z + 2 < z1) load_halo_raw(hy, hx, z + 2);
    finish_plane(z, t);
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      below[j] = center[j];
      center[j] = above[j];
      above[j] = raw_get<{{T}}>(ready, j);
    }
  };
  for (int z = z0; z < z1; z += 2) {
    step(z, pa, pb, ha, hxa);
    if (z + 1 < z1) step(z + 1, pb, pa, hb, hxb);
  }
#endif
}
