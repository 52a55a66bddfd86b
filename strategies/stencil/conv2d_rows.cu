// Strategy conv2d_rows: "same"-size 2D cross-correlation of a one-channel H x W image with a K x K
// filter, zero padding, out[y][x] = sum_{ky,kx<K} w[ky][kx] * in[y + ky - K/2][x + kx - K/2], computed
// from registers with wide row loads and no shared-memory tile.
// A block of BX x BY threads covers BX*VEC columns and BY*RY rows. Each thread owns VEC consecutive
// columns of RY consecutive output rows. It first issues every load it needs: the RY+K-1 input rows of
// its VEC columns, one VEC-wide access each (16 bytes for 8 BF16, 32 for 8 FP32), and, on the warp's two
// edge lanes only, the K/2 values left or right of the warp's run; so RY+K-1 independent wide loads per
// thread are in flight. Then, for each input row, the window of VEC+K-1 values is completed from the
// adjacent lanes by warp shuffles (the K/2 <= VEC halo values on each side belong to lanes x-1, x+1) and
// added into every output row whose filter window contains that row, taps in FP32 from shared memory.
// Each output is accumulated with fmaf in (ky, kx) order, the reference's order; zeros outside the image
// are explicit (rows, lanes and edge values beyond the image load 0). K = 1, 3, 5, 7 (up to KMAX) run
// specialised, fully unrolled code; any other K takes a direct path (each output from global memory), so
// correctness never depends on K. Vector accesses need W % VEC == 0 and VEC-aligned buffers (checked at
// run time); otherwise (the odd size cases) the direct path is used too.
//
// Why (H200 bench 2026-11-30, large K = 3 case: BF16 17 %, FP32 49 % of DRAM for conv2d_tiled): the tiled
// strategy loads its tile element by element (2-byte BF16 loads with a division per element), waits at
// a barrier and only then computes: few bytes in flight per SM and no overlap. The work model is
// 2*H*W*K*K flops: 2.4 GFLOP for the BF16 large case, 43 us at the measured 56.5 TFLOP/s FP32 against
// 126 us for its 512 MiB at 4.25 TB/s, so K = 3 is memory-bound by 3x and what matters is bytes in
// flight; K = 7 (medium) is balanced (1.6 GFLOP: 29 us vs 31 us) and there VEC*RY outputs per loaded
// value (register reuse) matter.
// Knobs: BX, BY (threads), VEC (columns per thread), RY (output rows per thread), KMAX (largest filter
// with specialised code: the kernel's register count is set by its largest specialisation, so KMAX = 3
// keeps the memory-bound K = 3 case at high occupancy while K = 5, 7 take the direct path).
//
// kopt:knob BX = [32, 64, 128]
// kopt:knob BY = [1, 2, 4]
// kopt:knob VEC = [4, 8]
// kopt:knob RY = [1, 2, 4, 8]
// kopt:knob KMAX = [3, 7]
// kopt:constraint BX * BY >= 64 && BX * BY <= 256
// kopt:constraint VEC * RY <= 32
// kopt:launch grid=(ceil_div({{ARG4}}, BX * VEC), ceil_div({{ARG3}}, BY * RY)) block=(BX, BY) kernel={{ENTRY}}

#ifndef BX
#define BX 64
#endif
#ifndef BY
#define BY 2
#endif
#ifndef VEC
#define VEC 8
#endif
#ifndef RY
#define RY 2
#endif
#ifndef KMAX
#define KMAX 7
#endif

static_assert(BX % 32 == 0, "a warp is 32 consecutive runs of one row");
static_assert(VEC == 4 || VEC == 8, "the K/2 <= 3 halo values on each side come from one neighbour lane");

namespace conv2d_rows {

constexpr int kMaxTaps = 49;  // 7 x 7

template <typename T, int KK>
__device__ __forceinline__ void rows(T* __restrict__ out, T const* __restrict__ in, float const* ws, int H,
                                     int W, int x, int y0, int lane) {
  using namespace kopt_strategy;
  using Vec = Pack<T, VEC>;
  constexpr int kR = KK / 2;
  constexpr int kRows = RY + KK - 1;  // input rows y0-kR .. y0+RY-1+kR
  T const zero = from_float<T>(0.0f);

  // 1. Every load first.
  Vec raw[kRows];
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    int const yy = y0 - kR + i;
    if (yy >= 0 && yy < H && x < W) {
      raw[i] = load_pack<T, VEC>(in + static_cast<long long>(yy) * W + x);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) raw[i].v[j] = zero;
    }
  }
  // Lane 0: columns x-kR .. x-1; lane 31: columns x+VEC .. x+VEC+kR-1 (0 outside the image).
  float edge[kRows][kR > 0 ? kR : 1];
  if constexpr (kR > 0) {
    bool const edge_lane = lane == 0 || lane == 31;
    int const c0 = lane == 0 ? x - kR : x + VEC;
#pragma unroll
    for (int i = 0; i < kRows; ++i) {
      int const yy = y0 - kR + i;
#pragma unroll
      for (int m = 0; m < kR; ++m) {
        int const c = c0 + m;
        bool const ok = edge_lane && yy >= 0 && yy < H && c >= 0 && c < W;
        edge[i][m] = ok ? to_float(in[static_cast<long long>(yy) * W + c]) : 0.0f;
      }
    }
  }

  // 2. Accumulate, one input row at a time (every lane takes part in the shuffles).
  float acc[RY][VEC];
#pragma unroll
  for (int r = 0; r < RY; ++r)
#pragma unroll
    for (int o = 0; o < VEC; ++o) acc[r][o] = 0.0f;
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    float v[VEC + 2 * kR];  // columns x-kR .. x+VEC-1+kR
#pragma unroll
    for (int j = 0; j < VEC; ++j) v[kR + j] = to_float(raw[i].v[j]);
#pragma unroll
    for (int m = 1; m <= kR; ++m) {
      float const from_left = __shfl_up_sync(0xffffffffu, v[kR + VEC - m], 1);
      float const from_right = __shfl_down_sync(0xffffffffu, v[kR + m - 1], 1);
      v[kR - m] = lane == 0 ? edge[i][kR - m] : from_left;
      v[kR + VEC - 1 + m] = lane == 31 ? edge[i][m - 1] : from_right;
    }
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      int const ky = i - r;  // output row y0+r uses input row y0+r+ky-kR
      if (ky >= 0 && ky < KK) {
#pragma unroll
        for (int kx = 0; kx < KK; ++kx) {
          float const wv = ws[ky * KK + kx];
#pragma unroll
          for (int o = 0; o < VEC; ++o) acc[r][o] = fmaf(wv, v[o + kx], acc[r][o]);
        }
      }
    }
  }

  // 3. Store.
  if (x < W) {
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      int const y = y0 + r;
      if (y < H) {
        Vec p;
#pragma unroll
        for (int o = 0; o < VEC; ++o) p.v[o] = from_float<T>(acc[r][o]);
        store_pack<T, VEC>(out + static_cast<long long>(y) * W + x, p);
      }
    }
  }
}

// Any K, any alignment: each of the thread's outputs straight from global memory, the reference's loop.
template <typename T>
__device__ __forceinline__ void direct(T* __restrict__ out, T const* __restrict__ in, T const* __restrict__ w,
                                      int H, int W, int K, int x, int y0) {
  using namespace kopt_strategy;
#pragma unroll 1
  for (int t = 0; t < RY * VEC; ++t) {
    int const y = y0 + t / VEC;
    int const xo = x + t % VEC;
    if (y >= H || xo >= W) continue;
    float sum = 0.0f;
#pragma unroll 1
    for (int ky = 0; ky < K; ++ky) {
      int const iy = y + ky - K / 2;
      if (iy < 0 || iy >= H) continue;
#pragma unroll 1
      for (int kx = 0; kx < K; ++kx) {
        int const ix = xo + kx - K / 2;
        if (ix < 0 || ix >= W) continue;
        sum = fmaf(to_float(w[ky * K + kx]), to_float(in[static_cast<long long>(iy) * W + ix]), sum);
      }
    }
    out[static_cast<long long>(y) * W + xo] = from_float<T>(sum);
  }
}

}  // namespace conv2d_rows

extern "C" __global__ void __launch_bounds__(BX * BY)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, const {{T}}* __restrict__ w, int H,
              int W, int K) {
  using namespace kopt_strategy;
  using namespace conv2d_rows;
  __shared__ float ws[kMaxTaps];
  int const tid = static_cast<int>(threadIdx.y) * BX + static_cast<int>(threadIdx.x);
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const x = (static_cast<int>(blockIdx.x) * BX + static_cast<int>(threadIdx.x)) * VEC;
  int const y0 = (static_cast<int>(blockIdx.y) * BY + static_cast<int>(threadIdx.y)) * RY;
  bool const vec_ok =
      W % VEC == 0 && aligned_to(in, sizeof({{T}}) * VEC) && aligned_to(out, sizeof({{T}}) * VEC);
  bool const fast = vec_ok && K <= KMAX && (K == 1 || K == 3 || K == 5 || K == 7);  // uniform
  if (!fast) {
    direct<{{T}}>(out, in, w, H, W, K, x, y0);
    return;
  }
  for (int i = tid; i < K * K; i += BX * BY) ws[i] = to_float(w[i]);
  __syncthreads();  // `fast` is the same for every thread of the grid: all of them reach it
  switch (K) {
    case 1: rows<{{T}}, 1>(out, in, ws, H, W, x, y0, lane); break;
    case 3: rows<{{T}}, 3>(out, in, ws, H, W, x, y0, lane); break;
#if KMAX >= 5
    case 5: rows<{{T}}, 5>(out, in, ws, H, W, x, y0, lane); break;
#endif
#if KMAX >= 7
    case 7: rows<{{T}}, 7>(out, in, ws, H, W, x, y0, lane); break;
#endif
    default: break;
  }
}
