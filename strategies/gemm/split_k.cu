// Strategy split_k (family gemm, FP32 and BF16 storage, launcher mode).
// C = A * B, row-major A (M x K), B (K x N), C (M x N), FP32 accumulation, one rounding to T at the end.
// For skinny products (few tiles of C, long K) a plain tiled kernel launches too few blocks to fill the
// GPU. Here K is cut into SPLITS slices: kernel 1 runs one block per (tile of C, slice of K) -- grid
// (tiles of N, tiles of M, SPLITS) -- each a shared-memory tiled, register-blocked product (BM x BN tile,
// TILE x TILE outputs per thread, K slices of 16, double-buffered shared memory, 4-element vector loads
// when rows are aligned, a scalar predicated path otherwise) that writes its FP32 partial tile to a
// workspace[SPLITS][M][N]. Kernel 2 adds the SPLITS partials of every element in slice order
// (deterministic, no atomics) and rounds once to T. The workspace is a static device buffer allocated
// once and grown only when a larger problem needs it. Any M, N, K (including 0) and any alignment work.
// Knobs: SPLITS (number of K slices), BM, BN (tile of C per block), TILE (outputs per thread, TILE^2).
//
// kopt:knob SPLITS = [2, 4, 8, 16, 32, 64]
// kopt:knob BM = [32, 64, 128]
// kopt:knob BN = [32, 64, 128]
// kopt:knob TILE = [4, 8]
// Threads per block between 64 and 256:
// kopt:constraint (BM / TILE) * (BN / TILE) >= 64 && (BM / TILE) * (BN / TILE) <= 256
// Every thread loads the same number of 4-element vectors of each K slice (16 deep):
// kopt:constraint (BM * 16) % ((BM / TILE) * (BN / TILE) * 4) == 0
// kopt:constraint (16 * BN) % ((BM / TILE) * (BN / TILE) * 4) == 0

#include <cuda_runtime.h>

#ifndef SPLITS
#define SPLITS 16
#endif
#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 64
#endif
#ifndef TILE
#define TILE 4
#endif

#define BK 16  // K slice (fixed: not a knob of this strategy)
#define TM TILE
#define TN TILE
// kopt:include smem_register_tile.cuh

namespace split_k {

using namespace smem_register_tiled;  // Elem, the tile geometry, the slice loading and multiplying

static_assert(TILE == 4 || TILE == 8, "TILE is 4 or 8");
static_assert(2 * BK * (kAStride + BN) * 4 <= 49152, "static shared memory at most 48 KiB");

// multiply_slice of smem_register_tile.cuh, but with the A and B fragments of a row / column group read
// together (kRowGroups == kColGroups here); kept apart: that order gives this kernel other SASS at TILE = 8.
__device__ __forceinline__ void multiply_slice_paired(float (&acc)[TILE][TILE], Tiles const& t, int buf,
                                                      int ty, int tx) {
#pragma unroll
  for (int k = 0; k < BK; ++k) {
    float a_frag[TILE];
    float b_frag[TILE];
#pragma unroll
    for (int g = 0; g < kRowGroups; ++g) {
      float4 const a = *reinterpret_cast<float4 const*>(&t.a[buf][k][g * kRowSpan + ty * 4]);
      float4 const b = *reinterpret_cast<float4 const*>(&t.b[buf][k][g * kColSpan + tx * 4]);
      a_frag[g * 4 + 0] = a.x;
      a_frag[g * 4 + 1] = a.y;
      a_frag[g * 4 + 2] = a.z;
      a_frag[g * 4 + 3] = a.w;
      b_frag[g * 4 + 0] = b.x;
      b_frag[g * 4 + 1] = b.y;
      b_frag[g * 4 + 2] = b.z;
      b_frag[g * 4 + 3] = b.w;
    }
#pragma unroll
    for (int i = 0; i < TILE; ++i) {
#pragma unroll
      for (int j = 0; j < TILE; ++j) acc[i][j] = fmaf(a_frag[i], b_frag[j], acc[i][j]);
    }
  }
}

// Block (x, y, z): the FP32 partial product of tile (y, x) of C over K slice z, into partial[z][M][N].
__global__ void __launch_bounds__(kThreads)
    partial_kernel(float* __restrict__ partial, Elem const* __restrict__ A, Elem const* __restrict__ B, int M,
                   int N, int K) {
  __shared__ __align__(16) Tiles tiles;
  int const tid = static_cast<int>(threadIdx.x);
  int const row0 = static_cast<int>(blockIdx.y) * BM;
  int const col0 = static_cast<int>(blockIdx.x) * BN;
  int const tx = tid % (BN / TILE);
  int const ty = tid / (BN / TILE);
  // Slice z covers [k_begin, k_end); the slice length is a multiple of BK, so vectors never straddle it.
  int const per_split = kopt_strategy::ceil_div(kopt_strategy::ceil_div(K, SPLITS), BK) * BK;
  int const z = static_cast<int>(blockIdx.z);
  int const k_begin = min(K, z * per_split);
  int const k_end = min(K, k_begin + per_split);
  unsigned const vec_bytes = kVec * sizeof(Elem);
  bool const a_vec = K % kVec == 0 && kopt_strategy::aligned_to(A, vec_bytes);
  bool const b_vec = N % kVec == 0 && kopt_strategy::aligned_to(B, vec_bytes);

  float acc[TILE][TILE];
  multiply_k_range(acc, tiles, A, B, M, N, K, k_begin, k_end, row0, col0, a_vec, b_vec,
                   [&](int buf) { multiply_slice_paired(acc, tiles, buf, ty, tx); });

  // Every element of the slice's partial tile is written (zeros for an empty slice): the sum reads them all.
  float* out = partial + static_cast<long long>(z) * M * N;
  bool const o_vec = N % 4 == 0;  // the workspace comes from cudaMalloc: rows are 16-byte aligned then
#pragma unroll
  for (int i = 0; i < TILE; ++i) {
    int const gm = row0 + (i / 4) * kRowSpan + ty * 4 + (i % 4);
    if (gm >= M) continue;
#pragma unroll
    for (int g = 0; g < kColGroups; ++g) {
      int const gn = col0 + g * kColSpan + tx * 4;
      float* dst = out + static_cast<long long>(gm) * N + gn;
      if (o_vec && gn + 4 <= N) {
        *reinterpret_cast<float4*>(dst) =
            make_float4(acc[i][g * 4 + 0], acc[i][g * 4 + 1], acc[i][g * 4 + 2], acc[i][g * 4 + 3]);
      } else {
#pragma unroll
        for (int v = 0; v < 4; ++v) {
          if (gn + v < N) dst[v] = acc[i][g * 4 + v];
        }
      }
    }
  }
}

// kopt:include split_k_sum.cuh

}  // namespace split_k

extern "C" void {{ENTRY}}({{T}}* C, const {{T}}* A, const {{T}}* B, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  long long const count = static_cast<long long>(M) * N;
  float* partial = split_k::workspace(static_cast<size_t>(count) * SPLITS * sizeof(float));
  if (partial == nullptr) return;  // out of memory: C stays as it is and verification reports it
  dim3 const grid(static_cast<unsigned>(kopt_strategy::ceil_div(N, BN)),
                  static_cast<unsigned>(kopt_strategy::ceil_div(M, BM)), SPLITS);
  split_k::partial_kernel<<<grid, split_k::kThreads, 0, kopt_strategy::launch_stream()>>>(partial, A, B, M, N, K);
  split_k::launch_sum(C, partial, count);
}
