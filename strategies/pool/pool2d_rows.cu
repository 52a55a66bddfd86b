// Strategy pool2d_rows: 2D pooling of NCHW planes, K x K windows, stride S, no padding ("valid"):
// out[p][y][x] = finish(combine over 0 <= ky, kx < K of in[p][y*S + ky][x*S + kx], K*K) for every plane p
// of the N*C planes, 0 <= y < Ho = (H-K)/S + 1, 0 <= x < Wo = (W-K)/S + 1. Registers only: no shared
// memory, no barrier.
// The grid is one-dimensional (x tiles fastest, then y tiles, then planes, so any N*C fits and blocks
// that share input rows run close together). A block of BX x BY threads covers BX*VEC output columns
// and BY*RY output rows of one plane; each thread owns VEC consecutive outputs of RY consecutive output
// rows. For the common windows (K, S) = (2, 2), (3, 2) and (3, 1) the window is a template argument:
// the thread first issues every load it needs, the (RY-1)*S + K input rows of its VEC*S input columns,
// each as 16-byte loads where rows are aligned (W a multiple of the load's width: 4 FP32 or 8 BF16
// values), element loads otherwise (odd widths such as 147 or 55 keep the same code), so many loads are
// in flight per SM; the K-S columns a window reaches beyond the thread's own (overlapping windows, S < K)
// come from the next lane by a warp shuffle, and only lane 31 loads them. Then it folds each input row
// into every output whose window contains it, in the reference's (ky, kx) order, and stores its VEC
// outputs as one vector when Wo is a multiple of VEC. Input rows shared by two output rows are read once
// per thread (RY output rows share (RY-1)*(K-S) rows). Any other K, S takes a direct path (each output
// from global memory), so correctness never depends on the window. Offsets are 64-bit.
// Knobs: BX (threads in x, a multiple of 32: a warp is 32 consecutive runs of one row), BY (threads in
// y), VEC (outputs per thread in x), RY (output rows per thread), KMAX (the largest window with compiled
// code: the kernel's register count is set by its largest specialisation, so KMAX = 2 keeps 2x2/2
// pooling at higher occupancy while 3x3 windows take the direct path).
//
// kopt:knob BX = [32, 64, 128]
// kopt:knob BY = [1, 2, 4, 8]
// kopt:knob VEC = [2, 4, 8]
// kopt:knob RY = [1, 2, 4]
// kopt:knob KMAX = [2, 3]
// kopt:constraint BX * BY >= 64 && BX * BY <= 512
// kopt:constraint VEC * RY <= 16
// kopt:launch grid=(ceil_div(({{ARG5}} - {{ARG6}}) / {{ARG7}} + 1, BX * VEC) * ceil_div(({{ARG4}} - {{ARG6}}) / {{ARG7}} + 1, BY * RY) * {{ARG2}} * {{ARG3}}) block=(BX, BY) kernel={{ENTRY}}

#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 4
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef RY
#define RY 2
#endif
#ifndef KMAX
#define KMAX 3
#endif

static_assert(BX % 32 == 0, "a warp is 32 consecutive runs of one row");

namespace pool2d_rows {

// kopt:include pool_op.cuh

// Elements of T per load of a thread's run of `c` input values: the widest power of two dividing c, at
// most 16 bytes.
template <typename T>
__host__ __device__ constexpr int pack_for(int c) {
  int p = 16 / static_cast<int>(sizeof(T));
  while (c % p != 0) p /= 2;
  return p;
}

// A K x K window with stride S (K >= S), known at compile time; P elements per load.
template <typename T, int KK, int SS, int P>
__device__ __forceinline__ void rows(T* __restrict__ out, T const* __restrict__ in, int H, int W, int Ho, int Wo,
                                     long long plane, int x0, int y0, int lane, bool vec_store) {
  using namespace kopt_strategy;
  static_assert(KK >= SS, "windows cover every input column of the run");
  constexpr int kRun = VEC * SS;       // the thread's input columns: x0*S .. x0*S + kRun - 1
  constexpr int kE = KK - SS;          // columns beyond them: the next lane's first kE
  constexpr int kRows = (RY - 1) * SS + KK;
  static_assert(kE <= kRun, "the extra columns come from one neighbour lane");
  static_assert(kRun % P == 0, "whole loads");
  using In = Pack<T, P>;
  int const ix0 = x0 * SS;
  int const iy0 = y0 * SS;
  T const zero = from_float<T>(0.0f);
  bool const edge_lane = lane == 31;

  // 1. Every load first. Values beyond the image (rows >= H, columns >= W) are only used by outputs
  // beyond Ho, Wo, which are not stored: they load 0.
  In raw[kRows][kRun / P];
  float edge[kRows][kE > 0 ? kE : 1];
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    int const iy = iy0 + j;
    bool const row_ok = iy < H;
    T const* row = in + (plane * H + (row_ok ? iy : 0)) * static_cast<long long>(W);
#pragma unroll
    for (int q = 0; q < kRun / P; ++q) {
      int const c = ix0 + q * P;
      if (row_ok && c < W) {  // P divides W: a load is wholly inside the row or wholly outside
        raw[j][q] = load_pack<T, P>(row + c);
      } else {
#pragma unroll
        for (int e = 0; e < P; ++e) raw[j][q].v[e] = zero;
      }
    }
    if constexpr (kE > 0) {
#pragma unroll
      for (int m = 0; m < kE; ++m) {
        int const c = ix0 + kRun + m;
        edge[j][m] = (edge_lane && row_ok && c < W) ? to_float(row[c]) : 0.0f;
      }
    }
  }

  // 2. Fold each input row into the outputs whose windows contain it (every lane takes part in the
  // shuffles). Output (r, o) sees its rows in ky order and each row's columns in kx order.
  float acc[RY][VEC];
#pragma unroll
  for (int r = 0; r < RY; ++r)
#pragma unroll
    for (int o = 0; o < VEC; ++o) acc[r][o] = PoolOp::identity();
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    float v[kRun + (kE > 0 ? kE : 0)];
#pragma unroll
    for (int c = 0; c < kRun; ++c) v[c] = to_float(raw[j][c / P].v[c % P]);
    if constexpr (kE > 0) {
#pragma unroll
      for (int m = 0; m < kE; ++m) {
        float const from_next = __shfl_down_sync(0xffffffffu, v[m], 1);
        v[kRun + m] = edge_lane ? edge[j][m] : from_next;
      }
    }
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      int const ky = j - r * SS;  // output row y0 + r reads input row iy0 + r*S + ky
      if (ky >= 0 && ky < KK) {
#pragma unroll
        for (int o = 0; o < VEC; ++o)
#pragma unroll
          for (int kx = 0; kx < KK; ++kx) acc[r][o] = PoolOp::combine(acc[r][o], v[o * SS + kx]);
      }
    }
  }

  // 3. Store.
  float const count = static_cast<float>(KK * KK);
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    int const y = y0 + r;
    if (y >= Ho) break;
    T* orow = out + (plane * Ho + y) * static_cast<long long>(Wo);
    if (vec_store) {
      if (x0 < Wo) {  // Wo % VEC == 0: the whole run is inside
        Pack<T, VEC> p;
#pragma unroll
        for (int o = 0; o < VEC; ++o) p.v[o] = from_float<T>(PoolOp::finish(acc[r][o], count));
        store_pack<T, VEC>(orow + x0, p);
      }
    } else {
#pragma unroll
      for (int o = 0; o < VEC; ++o) {
        if (x0 + o < Wo) orow[x0 + o] = from_float<T>(PoolOp::finish(acc[r][o], count));
      }
    }
  }
}

template <typename T, int KK, int SS>
__device__ __forceinline__ void rows_any_alignment(T* __restrict__ out, T const* __restrict__ in, int H, int W,
                                                   int Ho, int Wo, long long plane, int x0, int y0, int lane,
                                                   bool vec_store) {
  using namespace kopt_strategy;
  constexpr int P = pack_for<T>(VEC * SS);
  if (W % P == 0 && aligned_to(in, sizeof(T) * P)) {  // uniform over the grid
    rows<T, KK, SS, P>(out, in, H, W, Ho, Wo, plane, x0, y0, lane, vec_store);
  } else {
    rows<T, KK, SS, 1>(out, in, H, W, Ho, Wo, plane, x0, y0, lane, vec_store);
  }
}

// Any K, S: each of the thread's outputs straight from global memory, the reference's loop.
template <typename T>
__device__ __forceinline__ void direct(T* __restrict__ out, T const* __restrict__ in, int H, int W, int K, int S,
                                      int Ho, int Wo, long long plane, int x0, int y0) {
  using namespace kopt_strategy;
  float const count = static_cast<float>(K * K);
#pragma unroll 1
  for (int t = 0; t < RY * VEC; ++t) {
    int const y = y0 + t / VEC;
    int const x = x0 + t % VEC;
    if (y >= Ho || x >= Wo) continue;
    float acc = PoolOp::identity();
#pragma unroll 1
    for (int ky = 0; ky < K; ++ky) {
      T const* row = in + (plane * H + static_cast<long long>(y) * S + ky) * static_cast<long long>(W) +
                     static_cast<long long>(x) * S;
#pragma unroll 4
      for (int kx = 0; kx < K; ++kx) acc = PoolOp::combine(acc, to_float(row[kx]));
    }
    out[(plane * Ho + y) * static_cast<long long>(Wo) + x] = from_float<T>(PoolOp::finish(acc, count));
  }
}

}  // namespace pool2d_rows

extern "C" __global__ void __launch_bounds__(BX * BY)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int N, int C, int H, int W, int K, int S) {
  using namespace kopt_strategy;
  using namespace pool2d_rows;
  if (K < 1 || S < 1 || H < K || W < K) return;
  int const Ho = (H - K) / S + 1;
  int const Wo = (W - K) / S + 1;
  int const tiles_x = ceil_div(Wo, BX * VEC);
  int const tiles_y = ceil_div(Ho, BY * RY);
  unsigned b = blockIdx.x;
  int const bx = static_cast<int>(b % static_cast<unsigned>(tiles_x));
  b /= static_cast<unsigned>(tiles_x);
  int const by = static_cast<int>(b % static_cast<unsigned>(tiles_y));
  long long const plane = static_cast<long long>(b / static_cast<unsigned>(tiles_y));
  if (plane >= static_cast<long long>(N) * C) return;  // the whole block
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const x0 = (bx * BX + static_cast<int>(threadIdx.x)) * VEC;
  int const y0 = (by * BY + static_cast<int>(threadIdx.y)) * RY;
  bool const vec_store = Wo % VEC == 0 && aligned_to(out, sizeof({{T}}) * VEC);
  // K and S are the same for every thread: the branch is uniform, so every lane reaches the shuffles.
  if (K == 2 && S == 2) {
    rows_any_alignment<{{T}}, 2, 2>(out, in, H, W, Ho, Wo, plane, x0, y0, lane, vec_store);
#if KMAX >= 3
  } else if (K == 3 && S == 2) {
    rows_any_alignment<{{T}}, 3, 2>(out, in, H, W, Ho, Wo, plane, x0, y0, lane, vec_store);
  } else if (K == 3 && S == 1) {
    rows_any_alignment<{{T}}, 3, 1>(out, in, H, W, Ho, Wo, plane, x0, y0, lane, vec_store);
#endif
  } else {
    direct<{{T}}>(out, in, H, W, K, S, Ho, Wo, plane, x0, y0);
  }
}
