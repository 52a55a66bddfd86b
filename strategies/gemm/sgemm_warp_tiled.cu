// Strategy sgemm_warp_tiled (family gemm, FP32, kernel mode).
// C = A * B, row-major A (M x K), B (K x N), C (M x N), exact FP32 products and FP32 accumulation (no TF32).
// Each block computes a BM x BN tile of C with BM * BN / 64 threads. The block tile is cut into warp tiles
// of WM x WN (WM * WN = 2048, WM = 2048 / WN) and every lane accumulates an 8 x 8 register tile made of
// 2 x 2 sub-tiles of 4 x 4: rows wm0 + h * WM / 2 + ly * 4 + (0..3), columns wn0 + h * WN / 2 + lx * 4 +
// (0..3), lanes laid out (WM / 8) x (WN / 8). Per k a lane reads two float4 of A and two float4 of B from
// shared memory; the lanes of a warp read at most 128 contiguous bytes per access (one wavefront, no bank
// conflicts), and 64 FMAs follow. K is walked in slices of BK: the slice of A is stored transposed (k-major,
// rows padded by 4 floats, lanes mapped so that the transposing stores hit 32 different banks), the slice
// of B as is. Shared memory is double-buffered with a register prefetch: the next slice's global loads
// (float4 when K / N are multiples of 4 and the pointers 16-byte aligned, checked at run time; a guarded
// scalar path otherwise and at every edge) are issued before the current slice is multiplied and stored
// into the other buffer after it (one barrier per slice). Tiles are visited in groups of 8 tile rows
// (block swizzle) so that blocks running together share panels of A and B in L2.
// Split-K: grid z = S slices of K (chosen by the launch line from SPLIT: about SPLIT * 132 blocks when
// the tiles alone are fewer; S = 1 for large products). With S > 1 every block writes its FP32 partial
// tile to a static device workspace, the last block of a tile to arrive (a __device__ counter per tile,
// reset by that block) adds the S partials in slice order -- deterministic, no float atomics -- and
// writes C. If the workspace or the counters could not hold the partials, the kernel falls back to one
// slice (block z = 0 does the whole K), so correctness never depends on the launch line.
// Any M, N >= 1, K >= 0 (K = 0 gives zeros) and any alignment work.
// Knobs: BM, BN (block tile), BK (K slice), WN (warp tile width; WM = 2048 / WN), SPLIT (split-K target,
// in blocks per SM; 0 = never split).
//
// kopt:knob BM = [64, 128, 256]
// kopt:knob BN = [32, 64, 128, 256]
// kopt:knob BK = [8, 16]
// kopt:knob WN = [32, 64]
// kopt:knob SPLIT = [0, 1, 2, 4]
// Warp tiles divide the block tile:
// kopt:constraint BM % (2048 / WN) == 0 && BN % WN == 0
// Threads per block (BM * BN / 64) between 64 and 256 (at most 128 registers per thread, 2+ blocks per SM):
// kopt:constraint BM * BN >= 64 * 64 && BM * BN <= 64 * 256
// 256 x 64 and 64 x 256 tiles spill registers at 128 per thread (CUDA 13, sm_90): left out.
// kopt:constraint BM * BN < 64 * 256 || BM == BN
// Static shared memory (two buffers) at most 48 KiB:
// kopt:constraint 8 * BK * (BM + 4 + BN) + 16 <= 49152
// kopt:launch grid=(ceil_div({{ARG4}}, BN), ceil_div({{ARG3}}, BM), max(1, min(ceil_div(SPLIT * 132, ceil_div({{ARG3}}, BM) * ceil_div({{ARG4}}, BN)), min(ceil_div({{ARG5}}, 64), 4194304 / (ceil_div({{ARG3}}, BM) * BM * ceil_div({{ARG4}}, BN) * BN))))) block=(BM * BN / 64) kernel={{ENTRY}}

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 8
#endif
#ifndef WN
#define WN 64
#endif
#ifndef SPLIT
#define SPLIT 2
#endif

namespace sgemm_warp_tiled {

using Elem = {{T}};
constexpr int kWM = 2048 / WN;           // warp tile rows
constexpr int kThreads = BM * BN / 64;   // 32 lanes per warp tile of 2048 outputs
constexpr int kLanesN = WN / 8;          // lanes along N in a warp (4 or 8)
constexpr int kWarpsN = BN / WN;         // warps along N in a block
constexpr int kAStride = BM + 4;         // floats per k-row of the transposed A slice
constexpr int kAVecTotal = BM * BK / 4;  // float4 vectors of one A slice
constexpr int kBVecTotal = BK * BN / 4;  // float4 vectors of one B slice
constexpr int kAVectors = (kAVecTotal + kThreads - 1) / kThreads;
constexpr int kBVectors = (kBVecTotal + kThreads - 1) / kThreads;
constexpr int kGroupRows = 8;                 // block swizzle: tile rows per group
constexpr long long kWorkspaceFloats = 4194304;  // must match the literal in the launch line
constexpr int kMaxTiles = 4096;                  // split-K tile counters
// Blocks per SM for __launch_bounds__: 256 threads at most 128 registers (2 blocks), smaller blocks at most
// 168 (3 blocks of 128, 6 of 64): the 8 x 8 tile plus the prefetch registers spill at 128 there.
constexpr int kMinBlocks = kThreads >= 256 ? 2 : 384 / kThreads;

static_assert(sizeof(Elem) == 4, "sgemm_warp_tiled is the FP32 GEMM");
static_assert(WN == 32 || WN == 64, "WN is 32 or 64");
static_assert(BM % kWM == 0 && BN % WN == 0, "warp tiles must divide the block tile");
static_assert(kThreads >= 64 && kThreads <= 512 && kThreads % 32 == 0, "threads per block out of range");
static_assert(BK == 8 || BK == 16, "BK is 8 or 16");
static_assert(8 * BK * (kAStride + BN) + 16 <= 49152, "static shared memory at most 48 KiB");

__device__ __align__(16) float g_workspace[kWorkspaceFloats];
__device__ unsigned int g_tile_arrivals[kMaxTiles];

struct Tiles {
  float a[2][BK][kAStride];  // a[buf][k][m] = A[row0 + m][k0 + k]
  float b[2][BK][BN];        // b[buf][k][n] = B[k0 + k][col0 + n]
};

struct Staged {
  float4 a[kAVectors];
  float4 b[kBVectors];
};

// 4 consecutive elements src[0..3]; those at index >= limit (or all when !in_range) read as 0.
__device__ __forceinline__ float4 load4(float const* src, bool in_range, int limit, bool vec_ok) {
  if (in_range && vec_ok && limit >= 4) return __ldg(reinterpret_cast<float4 const*>(src));
  float4 r = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (in_range) {
    if (limit > 0) r.x = __ldg(src + 0);
    if (limit > 1) r.y = __ldg(src + 1);
    if (limit > 2) r.z = __ldg(src + 2);
    if (limit > 3) r.w = __ldg(src + 3);
  }
  return r;
}

// A vector e of a slice -> (m, kq): kq_lo = e % 2 alternates fastest so that a warp's transposing stores
// cover 16 rows x 2 k-quads (32 different banks); kq_hi = e / (2 * BM) selects k-quads 2, 3 when BK = 16.
__device__ __forceinline__ int a_row(int e) { return (e >> 1) % BM; }
__device__ __forceinline__ int a_kquad(int e) { return (e & 1) + 2 * (e / (2 * BM)); }

__device__ __forceinline__ void load_slice(Staged& s, float const* __restrict__ A, float const* __restrict__ B,
                                           int M, int N, int K, int row0, int col0, int k0, int k_end,
                                           bool a_vec, bool b_vec) {
  int const tid = static_cast<int>(threadIdx.x);
#pragma unroll
  for (int i = 0; i < kAVectors; ++i) {
    int const e = tid + i * kThreads;
    if (kAVecTotal % kThreads == 0 || e < kAVecTotal) {
      int const gm = row0 + a_row(e);
      int const gk = k0 + a_kquad(e) * 4;
      s.a[i] = load4(A + static_cast<long long>(gm) * K + gk, gm < M, k_end - gk, a_vec);
    }
  }
#pragma unroll
  for (int i = 0; i < kBVectors; ++i) {
    int const e = tid + i * kThreads;
    if (kBVecTotal % kThreads == 0 || e < kBVecTotal) {
      int const gk = k0 + e / (BN / 4);
      int const gn = col0 + (e % (BN / 4)) * 4;
      s.b[i] = load4(B + static_cast<long long>(gk) * N + gn, gk < k_end, N - gn, b_vec);
    }
  }
}

__device__ __forceinline__ void store_slice(Tiles& t, int buf, Staged const& s) {
  int const tid = static_cast<int>(threadIdx.x);
#pragma unroll
  for (int i = 0; i < kAVectors; ++i) {
    int const e = tid + i * kThreads;
    if (kAVecTotal % kThreads == 0 || e < kAVecTotal) {
      int const m = a_row(e);
      int const k = a_kquad(e) * 4;
      t.a[buf][k + 0][m] = s.a[i].x;
      t.a[buf][k + 1][m] = s.a[i].y;
      t.a[buf][k + 2][m] = s.a[i].z;
      t.a[buf][k + 3][m] = s.a[i].w;
    }
  }
#pragma unroll
  for (int i = 0; i < kBVectors; ++i) {
    int const e = tid + i * kThreads;
    if (kBVecTotal % kThreads == 0 || e < kBVecTotal) {
      int const k = e / (BN / 4);
      int const n = (e % (BN / 4)) * 4;
      *reinterpret_cast<float4*>(&t.b[buf][k][n]) = s.b[i];
    }
  }
}

// acc[r][c]: r = h * 4 + i is row a_off + h * kWM / 2 + i, c = g * 4 + j is column b_off + g * WN / 2 + j.
__device__ __forceinline__ void multiply_slice(float (&acc)[8][8], Tiles const& t, int buf, int a_off,
                                               int b_off) {
#pragma unroll
  for (int k = 0; k < BK; ++k) {
    float4 const a0 = *reinterpret_cast<float4 const*>(&t.a[buf][k][a_off]);
    float4 const a1 = *reinterpret_cast<float4 const*>(&t.a[buf][k][a_off + kWM / 2]);
    float4 const b0 = *reinterpret_cast<float4 const*>(&t.b[buf][k][b_off]);
    float4 const b1 = *reinterpret_cast<float4 const*>(&t.b[buf][k][b_off + WN / 2]);
    float const af[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
    float const bf[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
    for (int r = 0; r < 8; ++r) {
#pragma unroll
      for (int c = 0; c < 8; ++c) acc[r][c] = fmaf(af[r], bf[c], acc[r][c]);
    }
  }
}

// C[gm][gn..gn+3] = v, the elements outside C skipped; one float4 store when the row allows it.
__device__ __forceinline__ void store4(float* __restrict__ C, int M, int N, int gm, int gn, float4 v,
                                       bool c_vec) {
  if (gm >= M) return;
  float* const dst = C + static_cast<long long>(gm) * N + gn;
  if (c_vec && gn + 4 <= N) {
    *reinterpret_cast<float4*>(dst) = v;
  } else {
    if (gn + 0 < N) dst[0] = v.x;
    if (gn + 1 < N) dst[1] = v.y;
    if (gn + 2 < N) dst[2] = v.z;
    if (gn + 3 < N) dst[3] = v.w;
  }
}

__device__ __forceinline__ void gemm(float* __restrict__ C, float const* __restrict__ A,
                                     float const* __restrict__ B, int M, int N, int K) {
  __shared__ __align__(16) Tiles tiles;
  __shared__ unsigned int last_flag;
  int const tid = static_cast<int>(threadIdx.x);

  // Block swizzle: linear tile id -> (tile row, tile column), groups of kGroupRows tile rows walked
  // column by column (a bijection on the tiles of C).
  int const tiles_n = static_cast<int>(gridDim.x);
  int const tiles_m = static_cast<int>(gridDim.y);
  int const tile = static_cast<int>(blockIdx.y) * tiles_n + static_cast<int>(blockIdx.x);
  int const per_group = kGroupRows * tiles_n;
  int const first_m = (tile / per_group) * kGroupRows;
  int const group_m = min(tiles_m - first_m, kGroupRows);
  int const tile_m = first_m + (tile % per_group) % group_m;
  int const tile_n = (tile % per_group) / group_m;
  int const row0 = tile_m * BM;
  int const col0 = tile_n * BN;

  // Split-K: slices of K that are multiples of BK; one slice when the workspace cannot hold the partials.
  int splits = static_cast<int>(gridDim.z);
  int const z = static_cast<int>(blockIdx.z);
  int const tiles_total = tiles_m * tiles_n;
  if (splits > 1 && (tiles_total > kMaxTiles ||
                     static_cast<long long>(tiles_total) * BM * BN * splits > kWorkspaceFloats)) {
    if (z != 0) return;  // the whole block leaves before any barrier
    splits = 1;
  }
  int const chunk = ((K + splits - 1) / splits + BK - 1) / BK * BK;
  int const k_begin = min(K, z * chunk);
  int const k_end = min(K, k_begin + chunk);

  int const warp = tid / 32;
  int const lane = tid % 32;
  int const warp_m = warp / kWarpsN;
  int const warp_n = warp % kWarpsN;
  int const ly = lane / kLanesN;
  int const lx = lane % kLanesN;
  int const a_off = warp_m * kWM + ly * 4;  // row of acc[0][*] within the tile
  int const b_off = warp_n * WN + lx * 4;   // column of acc[*][0] within the tile

  bool const a_vec = (K & 3) == 0 && kopt_strategy::aligned_to(A, 16);
  bool const b_vec = (N & 3) == 0 && kopt_strategy::aligned_to(B, 16);
  bool const c_vec = (N & 3) == 0 && kopt_strategy::aligned_to(C, 16);

  float acc[8][8];
#pragma unroll
  for (int r = 0; r < 8; ++r) {
#pragma unroll
    for (int c = 0; c < 8; ++c) acc[r][c] = 0.0f;
  }

  Staged staged;
  if (k_begin < k_end) {
    load_slice(staged, A, B, M, N, K, row0, col0, k_begin, k_end, a_vec, b_vec);
    store_slice(tiles, 0, staged);
    __syncthreads();
  }
  int buf = 0;
  for (int k0 = k_begin; k0 < k_end; k0 += BK) {
    bool const has_next = k0 + BK < k_end;
    if (has_next) load_slice(staged, A, B, M, N, K, row0, col0, k0 + BK, k_end, a_vec, b_vec);
    multiply_slice(acc, tiles, buf, a_off, b_off);
    // The other buffer was last read in the previous iteration, which ended with a barrier.
    if (has_next) store_slice(tiles, buf ^ 1, staged);
    __syncthreads();
    buf ^= 1;
  }

  if (splits > 1) {
    // Partial tile -> workspace[tile][z] (tile-local BM x BN, always in bounds and 16-byte aligned).
    float* const mine = g_workspace + (static_cast<long long>(tile) * splits + z) * (BM * BN);
#pragma unroll
    for (int r = 0; r < 8; ++r) {
      int const lr = a_off + (r / 4) * (kWM / 2) + (r % 4);
#pragma unroll
      for (int g = 0; g < 2; ++g) {
        int const lc = b_off + g * (WN / 2);
        __stcg(reinterpret_cast<float4*>(mine + lr * BN + lc),
               make_float4(acc[r][g * 4 + 0], acc[r][g * 4 + 1], acc[r][g * 4 + 2], acc[r][g * 4 + 3]));
      }
    }
    __threadfence();  // this thread's partial is visible device-wide before the block is counted
    __syncthreads();
    if (tid == 0) {
      unsigned int const before = atomicAdd(&g_tile_arrivals[tile], 1u);
      bool const last = before == static_cast<unsigned int>(splits - 1);
      if (last) g_tile_arrivals[tile] = 0u;  // every slice has arrived: ready for the next launch
      last_flag = last ? 1u : 0u;
    }
    __syncthreads();
    if (last_flag == 0u) return;
    __threadfence();
    // The last block adds the S partials (its own included) in slice order and writes C.
    float const* const all = g_workspace + static_cast<long long>(tile) * splits * (BM * BN);
#pragma unroll
    for (int r = 0; r < 8; ++r) {
      int const lr = a_off + (r / 4) * (kWM / 2) + (r % 4);
#pragma unroll
      for (int g = 0; g < 2; ++g) {
        int const lc = b_off + g * (WN / 2);
        float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        for (int s = 0; s < splits; ++s) {
          float4 const p =
              __ldcg(reinterpret_cast<float4 const*>(all + static_cast<long long>(s) * (BM * BN) + lr * BN + lc));
          sum.x += p.x;
          sum.y += p.y;
          sum.z += p.z;
          sum.w += p.w;
        }
        store4(C, M, N, row0 + lr, col0 + lc, sum, c_vec);
      }
    }
    return;
  }

#pragma unroll
  for (int r = 0; r < 8; ++r) {
    int const lr = a_off + (r / 4) * (kWM / 2) + (r % 4);
#pragma unroll
    for (int g = 0; g < 2; ++g) {
      int const lc = b_off + g * (WN / 2);
      store4(C, M, N, row0 + lr, col0 + lc,
             make_float4(acc[r][g * 4 + 0], acc[r][g * 4 + 1], acc[r][g * 4 + 2], acc[r][g * 4 + 3]), c_vec);
    }
  }
}

}  // namespace sgemm_warp_tiled

extern "C" __global__ void __launch_bounds__(BM * BN / 64, sgemm_warp_tiled::kMinBlocks)
    {{ENTRY}}({{T}}* __restrict__ C, const {{T}}* __restrict__ A, const {{T}}* __restrict__ B, int M, int N,
              int K) {
  sgemm_warp_tiled::gemm(C, A, B, M, N, K);
}
