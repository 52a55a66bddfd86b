// Strategy warp_per_row_gemv, gemv family (kernel mode): y = A x, A row-major M x N.
// A block holds WARPS warps; each warp owns ROWS consecutive rows and walks them together: lane l reads
// 128-bit packs l, l + 32, ... of every row (a warp's loads are contiguous), UNROLL packs per row in
// flight, and each pack of x it loads once serves all ROWS rows. Rows of A are read with streaming
// (evict-first) loads so that x, which every warp re-reads, stays in L1/L2. Each row's FP32 sum is
// reduced with warp shuffles and lane 0 writes it, rounded once to T. When N is not a multiple of the
// pack or a buffer is not 16-byte aligned, the warp reads element by element (still coalesced), so any
// M and N work.
//
// Knobs: WARPS warps per block; ROWS rows per warp, sharing each load of x; UNROLL 128-bit loads of each
// row in flight per lane.
// kopt:knob WARPS = [2, 4, 8, 16]
// kopt:knob ROWS = [1, 2, 4]
// kopt:knob UNROLL = [1, 2, 4]
// kopt:constraint ROWS * UNROLL <= 8 && WARPS * ROWS <= 32
// kopt:launch grid=(max(1, ceil_div({{ARG3}}, WARPS * ROWS))) block=(WARPS * 32) kernel={{ENTRY}}

#ifndef WARPS
#define WARPS 4
#endif
#ifndef ROWS
#define ROWS 2
#endif
#ifndef UNROLL
#define UNROLL 2
#endif

namespace warp_per_row_gemv {

using T = {{T}};
constexpr int kPack = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
using Pack = kopt_strategy::Pack<T, kPack>;

// A 128-bit load that is not kept in cache (each element of A is read once).
__device__ __forceinline__ Pack load_streaming(T const* p) {
  uint4 const raw = __ldcs(reinterpret_cast<uint4 const*>(p));
  Pack out;
  static_assert(sizeof(Pack) == sizeof(uint4), "a pack is 128 bits");
  *reinterpret_cast<uint4*>(&out) = raw;
  return out;
}

}  // namespace warp_per_row_gemv

extern "C" __global__ void __launch_bounds__(WARPS * 32)
    {{ENTRY}}({{T}}* __restrict__ y, const {{T}}* __restrict__ A, const {{T}}* __restrict__ x, int M, int N) {
  using namespace warp_per_row_gemv;
  using kopt_strategy::to_float;
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  long long const first_row = (static_cast<long long>(blockIdx.x) * WARPS + warp) * ROWS;
  if (first_row >= M) return;  // whole warps only; no block-wide barrier below
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
  if (vector_ok) {
    int const packs = N / kPack;
    int p = lane;
    for (; p + (UNROLL - 1) * 32 < packs; p += UNROLL * 32) {
      Pack xs[UNROLL];
      Pack as[ROWS][UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) xs[u] = kopt_strategy::load_pack<T, kPack>(x + (p + u * 32) * kPack);
#pragma unroll
      for (int r = 0; r < ROWS; ++r) {
#pragma unroll
        for (int u = 0; u < UNROLL; ++u)
          as[r][u] = load_streaming(a[r] + static_cast<long long>(p + u * 32) * kPack);
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
    for (; p < packs; p += 32) {
      Pack const xs = kopt_strategy::load_pack<T, kPack>(x + p * kPack);
#pragma unroll
      for (int r = 0; r < ROWS; ++r) {
        Pack const as = load_streaming(a[r] + static_cast<long long>(p) * kPack);
#pragma unroll
        for (int e = 0; e < kPack; ++e) acc[r] = fmaf(to_float(as.v[e]), to_float(xs.v[e]), acc[r]);
      }
    }
  } else {
    for (int j = lane; j < N; j += 32) {
      float const xv = to_float(x[j]);
#pragma unroll
      for (int r = 0; r < ROWS; ++r) acc[r] = fmaf(to_float(a[r][j]), xv, acc[r]);
    }
  }
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    float const sum = kopt_strategy::warp_sum(acc[r]);
    if (lane == 0 && first_row + r < M) y[first_row + r] = kopt_strategy::from_float<T>(sum);
  }
}
