// Strategy block_per_row_gemv, gemv family (kernel mode): y = A x, A row-major M x N, for wide rows.
// A block of BLOCK threads owns ROWS consecutive rows and walks them together: thread t reads 128-bit
// packs t, t + BLOCK, ... of every row (contiguous across the block), UNROLL packs per row in flight, and
// each pack of x it loads serves all ROWS rows. Rows of A are read with streaming (evict-first) loads so
// that x stays in L1/L2. Each thread's FP32 partial sums are reduced with warp shuffles, then across the
// block's warps through shared memory, and the first threads write the rows, rounded once to T. With
// many threads per row, even a few thousand long rows fill the GPU. When N is not a multiple of the
// pack or a buffer is not 16-byte aligned, the block reads element by element (still coalesced), so any
// M and N work.
//
// Knobs: BLOCK threads per row group; ROWS rows per block, sharing each load of x; UNROLL 128-bit loads of
// each row in flight per thread.
// kopt:knob BLOCK = [64, 128, 256, 512, 1024]
// kopt:knob ROWS = [1, 2, 4]
// kopt:knob UNROLL = [1, 2, 4]
// kopt:constraint ROWS * UNROLL <= 8 && BLOCK * ROWS <= 2048
// kopt:launch grid=(max(1, ceil_div({{ARG3}}, ROWS))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ROWS
#define ROWS 1
#endif
#ifndef UNROLL
#define UNROLL 4
#endif

namespace block_per_row_gemv {

using T = {{T}};
constexpr int kPack = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
constexpr int kWarps = BLOCK / 32;
using Pack = kopt_strategy::Pack<T, kPack>;
static_assert(BLOCK % 32 == 0, "whole warps");

// A 128-bit load that is not kept in cache (each element of A is read once).
__device__ __forceinline__ Pack load_streaming(T const* p) {
  uint4 const raw = __ldcs(reinterpret_cast<uint4 const*>(p));
  Pack out;
  static_assert(sizeof(Pack) == sizeof(uint4), "a pack is 128 bits");
  *reinterpret_cast<uint4*>(&out) = raw;
  return out;
}

}  // namespace block_per_row_gemv

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ y, const {{T}}* __restrict__ A, const {{T}}* __restrict__ x, int M, int N) {
  using namespace block_per_row_gemv;
  using kopt_strategy::to_float;
  __shared__ float warp_sums[ROWS][kWarps];
  int const tid = static_cast<int>(threadIdx.x);
  int const lane = tid & 31;
  int const warp = tid >> 5;
  long long const first_row = static_cast<long long>(blockIdx.x) * ROWS;
  T const* a[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    long long const row = first_row + r < M ? first_row + r : first_row;  // past M: recompute, never stored
    a[r] = A + row * N;
  }
  float acc[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) acc[r] = 0.0f;

  bool const vector_ok =
      N % kPack == 0 && kopt_strategy::aligned_to(A, 16u) && kopt_strategy::aligned_to(x, 16u);
  if (first_row < M) {
    if (vector_ok) {
      int const packs = N / kPack;
      int p = tid;
      for (; p + (UNROLL - 1) * BLOCK < packs; p += UNROLL * BLOCK) {
        Pack xs[UNROLL];
        Pack as[ROWS][UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u)
          xs[u] = kopt_strategy::load_pack<T, kPack>(x + (p + u * BLOCK) * kPack);
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
#pragma unroll
          for (int u = 0; u < UNROLL; ++u)
            as[r][u] = load_streaming(a[r] + static_cast<long long>(p + u * BLOCK) * kPack);
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
          for (int e = 0; e < kPack; ++e) {
            float const xv = to_float(xs[u].v[e]);
#pragma unroll
            for (int r = 0; r < ROWS; ++r) acc[r] = fmaf(to_float(as[r][u].v[e]), xv, acc[r]);
          }
        }
      }
      for (; p < packs; p += BLOCK) {
        Pack const xs = kopt_strategy::load_pack<T, kPack>(x + p * kPack);
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
          Pack const as = load_streaming(a[r] + static_cast<long long>(p) * kPack);
#pragma unroll
          for (int e = 0; e < kPack; ++e) acc[r] = fmaf(to_float(as.v[e]), to_float(xs.v[e]), acc[r]);
        }
      }
    } else {
      for (int j = tid; j < N; j += BLOCK) {
        float const xv = to_float(x[j]);
#pragma unroll
        for (int r = 0; r < ROWS; ++r) acc[r] = fmaf(to_float(a[r][j]), xv, acc[r]);
      }
    }
  }
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    float const sum = kopt_strategy::warp_sum(acc[r]);
    if (lane == 0) warp_sums[r][warp] = sum;
  }
  __syncthreads();
  for (int r = warp; r < ROWS; r += kWarps) {  // warp w adds up the warp sums of rows w, w + kWarps, ...
    float const v = lane < kWarps ? warp_sums[r][lane] : 0.0f;
    float const sum = kopt_strategy::warp_sum(v);
    if (lane == 0 && first_row + r < M) y[first_row + r] = kopt_strategy::from_float<T>(sum);
  }
}
