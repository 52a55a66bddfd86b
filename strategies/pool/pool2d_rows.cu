// Strategy pool2d_rows: 2D pooling of NCHW planes, K x K windows, stride S, no padding ("valid"):
// out[p][y][x] = finish(combine over 0 <= ky, kx < K of in[p][y*S + ky][x*S + kx], K*K) for every plane p
// of the N*C planes, 0 <= y < Ho = (H-K)/S + 1, 0 <= x < Wo = (W-K)/S + 1. Registers only: no shared
// memory, no barrier.
// The grid is one-dimensional (x tiles fastest, then y tiles, then planes, so any N*C fits and blocks
// that share input rows run close together). A block of BX x BY threads covers BX*VEC output columns
// and BY*RY output rows of one plane; each thread owns VEC consecutive outputs of RY consecutive output
// rows. For the common windows (K, S) = (2, 2), (3, 2) and (3, 1) the window is a template argument:
// 1. Loads. The thread first issues every load it needs, the (RY-1)*S + K input rows of its VEC*S input
//    columns, each as 16-byte loads of whole 32-bit words where rows are aligned (W a multiple of the
//    load's width: 4 FP32 or 8 BF16 values; BF16 pairs widen with one shift or mask each), so many loads
//    are in flight per SM. Rows and columns beyond the image are clamped to its last row and column: they
//    feed only outputs beyond Ho and Wo, which are not stored, so the loads need no predicate and no
//    zero fill. The K-S columns a window reaches beyond the thread's own (overlapping windows, S < K)
//    come from the next lane by a warp shuffle; only lane 31 loads them. Other widths (odd, such as 147
//    or 55) load element by element, one register per element, and so one output row at a time (K rows,
//    shared rows read again from L1): all RY at once would make that path set the kernel's register
//    count and cost the aligned path its occupancy.
// 2. Fold, separably: each input row is folded once across its windows' columns (kx order), and that
//    row value into every output row whose window contains the row (ky order), so input rows shared by
//    two of the thread's output rows (RY output rows share (RY-1)*(K-S) rows) are read and folded once,
//    and a 3x3 window costs 2 + 3 combines per output instead of 9. The grouping differs from the
//    reference's single (ky, kx) chain, which `combine` allows (associative and commutative,
//    pool_op.cuh).
// 3. Stores, as whole aligned VEC-element vectors even when the output row length Wo is odd or rows
//    start anywhere in a vector: an output row starts s = (its flat index mod VEC) elements past an
//    aligned vector, so each lane gets the previous lane's VEC results by a warp shuffle and stores the
//    aligned vector that ends inside its own run (the previous lane's last s results, then its own
//    first VEC-s). What no whole vector covers is stored element by element: the row's two ends, and at
//    each warp's seam lane 0's first VEC-s results and lane 31's last s (together one vector's worth).
//    With Wo a multiple of VEC and an aligned plane, s is 0 on every row: no shuffle, one vector per
//    thread. (3x3 stride-2 windows on 256-wide rows give Wo = 127: element stores used to waste 77 %
//    of each written sector.) An output buffer not aligned to a vector is written element by element.
// Any other K, S, and planes of 2^31 elements or more (offsets inside a plane are 32-bit), take a direct
// path (each output from global memory), so correctness never depends on the window. Plane offsets are
// 64-bit. Ho and Wo come from the compiled window's constants (no division).
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
static_assert(VEC > 0 && (VEC & (VEC - 1)) == 0, "a row's offset in a vector is its flat index's low bits");

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

// Loads and stores move whole 32-bit words where a run of elements fills at least one: BF16 values are
// widened and packed with one integer or conversion instruction per element pair, no half-register moves.
__device__ __forceinline__ float word_element(float const*, unsigned const* w, int e) {
  return __uint_as_float(w[e]);
}
__device__ __forceinline__ float word_element(__nv_bfloat16 const*, unsigned const* w, int e) {
  unsigned const u = w[e >> 1];
  return __uint_as_float((e & 1) != 0 ? (u & 0xffff0000u) : (u << 16));
}
__device__ __forceinline__ unsigned element_word(float const*, float const* f, int i) {
  return __float_as_uint(f[i]);
}
__device__ __forceinline__ unsigned element_word(__nv_bfloat16 const*, float const* f, int i) {
  __nv_bfloat162 const h = __floats2bfloat162_rn(f[2 * i], f[2 * i + 1]);
  return static_cast<unsigned>(__bfloat16_as_ushort(h.x)) |
         (static_cast<unsigned>(__bfloat16_as_ushort(h.y)) << 16);
}

// P consecutive elements of T, loaded as one access.
template <typename T, int P, bool kWords = (P * sizeof(T) >= 4)>
struct Run {
  static constexpr int kW = P * static_cast<int>(sizeof(T)) / 4;
  kopt_strategy::Pack<unsigned, kW> w;
  __device__ __forceinline__ void load(T const* p) {
    w = kopt_strategy::load_pack<unsigned, kW>(reinterpret_cast<unsigned const*>(p));
  }
  __device__ __forceinline__ float at(int e) const { return word_element(static_cast<T const*>(nullptr), w.v, e); }
};
template <typename T, int P>
struct Run<T, P, false> {  // a single BF16 value
  static_assert(P == 1, "narrower than a word: one element");
  T v;
  __device__ __forceinline__ void load(T const* p) { v = *p; }
  __device__ __forceinline__ float at(int) const { return kopt_strategy::to_float(v); }
};

// Stores VEC results, rounded to T, as one aligned vector at p.
template <typename T>
__device__ __forceinline__ void store_vector(T* p, float const (&f)[VEC]) {
  constexpr int kW = VEC * static_cast<int>(sizeof(T)) / 4;
  static_assert(kW * 4 == VEC * static_cast<int>(sizeof(T)), "a vector is whole words");
  unsigned w[kW];
#pragma unroll
  for (int i = 0; i < kW; ++i) w[i] = element_word(static_cast<T const*>(nullptr), f, i);
  // In PTX: NVVM splits a vector store (struct or uint2) whose address it cannot prove aligned itself,
  // and the shifted vectors' addresses (x0 - s) defeat its proof.
  if constexpr (kW == 1) {
    asm volatile("st.global.b32 [%0], %1;" ::"l"(p), "r"(w[0]) : "memory");
  } else if constexpr (kW == 2) {
    asm volatile("st.global.v2.b32 [%0], {%1, %2};" ::"l"(p), "r"(w[0]), "r"(w[1]) : "memory");
  } else {
#pragma unroll
    for (int i = 0; i < kW; i += 4)
      asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(reinterpret_cast<unsigned*>(p) + i),
                   "r"(w[i]), "r"(w[i + 1]), "r"(w[i + 2]), "r"(w[i + 3])
                   : "memory");
  }
}

// The vector of outputs x .. x + VEC - 1 of a row that starts SH elements past an aligned vector, where
// the thread owns x + SH .. and the previous lane owns .. x + SH - 1: the previous lane's last SH results,
// then the thread's first VEC - SH.
template <int SH>
__device__ __forceinline__ void join_at(float (&q)[VEC], float const (&prev)[VEC], float const (&own)[VEC]) {
#pragma unroll
  for (int e = 0; e < VEC; ++e) q[e] = e < SH ? prev[VEC - SH + e] : own[e - SH];
}

// join_at for a run-time s in 1 .. VEC-1 (the same on every lane of a warp: one output row).
template <int SH = 1>
__device__ __forceinline__ void join(float (&q)[VEC], float const (&prev)[VEC], float const (&own)[VEC], int s) {
  if constexpr (SH + 1 < VEC) {
    if (s != SH) {
      join<SH + 1>(q, prev, own, s);
      return;
    }
  }
  join_at<SH>(q, prev, own);
}

// Stores the thread's VEC results `own` (outputs x0 .. x0+VEC-1 of the output row whose first element is
// orow[0], flat index `at`): whole aligned vectors where they fit (header comment, step 3). Every lane of
// the warp calls it for the same row. `packs`: the output buffer is aligned to a vector.
template <typename T>
__device__ __forceinline__ void store_run(T* __restrict__ orow, long long at, int Wo, int x0, int lane,
                                          float const (&own)[VEC], bool packs) {
  using namespace kopt_strategy;
  int const s = static_cast<int>(at & (VEC - 1));  // the row starts s elements past an aligned vector
  if (packs && s == 0) {                           // uniform over the warp
    if (x0 + VEC <= Wo) {
      store_vector<T>(orow + x0, own);
    } else {
#pragma unroll
      for (int o = 0; o < VEC; ++o)
        if (x0 + o < Wo) orow[x0 + o] = from_float<T>(own[o]);
    }
    return;
  }
  if (!packs) {
#pragma unroll
    for (int o = 0; o < VEC; ++o)
      if (x0 + o < Wo) orow[x0 + o] = from_float<T>(own[o]);
    return;
  }
  // Shifted by s: this lane stores outputs x .. x+VEC-1, x = x0 - s, the aligned vector that ends in its
  // run. Lane 0 lacks the previous lane's part (it is the previous warp's, or the previous row's):
  // it stores its own elements one by one, and lane 31 adds its last s, which no lane's vector holds.
  float prev[VEC];
#pragma unroll
  for (int o = 0; o < VEC; ++o) prev[o] = __shfl_up_sync(0xffffffffu, own[o], 1);
  float q[VEC];
  join(q, prev, own, s);
  int const x = x0 - s;
  if (lane > 0 && x + VEC <= Wo) {  // lane > 0: x >= VEC - s > 0
    store_vector<T>(orow + x, q);
  } else {
#pragma unroll
    for (int e = 0; e < VEC; ++e)
      if ((lane > 0 || e >= s) && x + e < Wo) orow[x + e] = from_float<T>(q[e]);
  }
  if (lane == 31) {
#pragma unroll
    for (int o = 0; o < VEC; ++o)
      if (o >= VEC - s && x0 + o < Wo) orow[x0 + o] = from_float<T>(own[o]);
  }
}

// Folds NR output rows of a K x K window with stride S (K >= S, known at compile time) into acc[r][o]
// (output rows y0 + r, where iy0 = y0*S, columns x0 + o, where ix0 = x0*S), P elements per load.
template <typename T, int KK, int SS, int P, int NR>
__device__ __forceinline__ void fold(float (&acc)[NR][VEC], T const* __restrict__ base, int H, int W, int iy0,
                                     int ix0, bool edge_lane) {
  using namespace kopt_strategy;
  static_assert(KK >= SS, "windows cover every input column of the run");
  constexpr int kRun = VEC * SS;  // the thread's input columns: ix0 .. ix0 + kRun - 1
  constexpr int kE = KK - SS;     // columns beyond them: the next lane's first kE
  constexpr int kRows = (NR - 1) * SS + KK;
  constexpr int kLoads = kRun / P;
  static_assert(kE <= kRun, "the extra columns come from one neighbour lane");
  static_assert(kRun % P == 0, "whole loads");

  // 1. Every load first, clamped into the image: a row beyond H or a column beyond W feeds only outputs
  // beyond Ho or Wo, which are not stored (P divides W: a load is wholly inside the row or clamped to its
  // last P columns).
  // Offsets in the plane are below 2^31 (the caller checks H*W): 32-bit, unsigned.
  unsigned col[kLoads];
#pragma unroll
  for (int q = 0; q < kLoads; ++q) col[q] = static_cast<unsigned>(min(ix0 + q * P, W - P));
  unsigned ecol[kE > 0 ? kE : 1];
#pragma unroll
  for (int m = 0; m < kE; ++m) ecol[m] = static_cast<unsigned>(min(ix0 + kRun + m, W - 1));
  Run<T, P> raw[kRows][kLoads];
  T edge[kRows][kE > 0 ? kE : 1];
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    unsigned const row = static_cast<unsigned>(min(iy0 + j, H - 1) * W);
#pragma unroll
    for (int q = 0; q < kLoads; ++q) raw[j][q].load(base + (row + col[q]));
    if constexpr (kE > 0) {
#pragma unroll
      for (int m = 0; m < kE; ++m) edge[j][m] = edge_lane ? base[row + ecol[m]] : from_float<T>(0.0f);
    }
  }

  // 2. Fold each input row across its windows' columns, then into the output rows whose windows contain
  // it (every lane takes part in the shuffles).
#pragma unroll
  for (int r = 0; r < NR; ++r)
#pragma unroll
    for (int o = 0; o < VEC; ++o) acc[r][o] = PoolOp::identity();
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    float v[kRun + (kE > 0 ? kE : 0)];
#pragma unroll
    for (int c = 0; c < kRun; ++c) v[c] = raw[j][c / P].at(c % P);
    if constexpr (kE > 0) {
#pragma unroll
      for (int m = 0; m < kE; ++m) {
        float const from_next = __shfl_down_sync(0xffffffffu, v[m], 1);
        v[kRun + m] = edge_lane ? to_float(edge[j][m]) : from_next;
      }
    }
    float h[VEC];  // output o's window row: columns o*S .. o*S + K - 1, in kx order
#pragma unroll
    for (int o = 0; o < VEC; ++o) {
      h[o] = v[o * SS];
#pragma unroll
      for (int kx = 1; kx < KK; ++kx) h[o] = PoolOp::combine(h[o], v[o * SS + kx]);
    }
#pragma unroll
    for (int r = 0; r < NR; ++r) {
      int const ky = j - r * SS;  // output row r reads input row iy0 + r*S + ky
      if (ky >= 0 && ky < KK) {
#pragma unroll
        for (int o = 0; o < VEC; ++o) acc[r][o] = PoolOp::combine(acc[r][o], h[o]);
      }
    }
  }
}

// The thread's RY x VEC outputs for a window known at compile time.
template <typename T, int KK, int SS, int P>
__device__ __forceinline__ void rows(T* __restrict__ out, T const* __restrict__ in, int H, int W, int Ho, int Wo,
                                     long long plane, int x0, int y0, int lane, bool packs) {
  T const* const base = in + plane * H * static_cast<long long>(W);
  float const count = static_cast<float>(KK * KK);
  if constexpr (P > 1) {
    // Whole-word loads: all RY rows' loads in flight at once, rows shared by two output rows read once.
    float acc[RY][VEC];
    fold<T, KK, SS, P, RY>(acc, base, H, W, y0 * SS, x0 * SS, lane == 31);
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      int const y = y0 + r;
      if (y >= Ho) break;  // uniform over the warp: one output row
      long long const at = (plane * Ho + y) * static_cast<long long>(Wo);
      float res[VEC];
#pragma unroll
      for (int o = 0; o < VEC; ++o) res[o] = PoolOp::finish(acc[r][o], count);
      store_run<T>(out + at, at, Wo, x0, lane, res, packs);
    }
  } else {
    // Element loads (W not a multiple of the load): one register per element, so one output row at a time;
    // all RY at once would make this path the kernel's register count (its most demanding path's) and
    // cost the aligned path its occupancy. Shared rows are read again, from L1.
#pragma unroll 1
    for (int r = 0; r < RY; ++r) {
      int const y = y0 + r;
      if (y >= Ho) break;  // uniform over the warp
      float acc[1][VEC];
      fold<T, KK, SS, 1, 1>(acc, base, H, W, y * SS, x0 * SS, lane == 31);
      long long const at = (plane * Ho + y) * static_cast<long long>(Wo);
      float res[VEC];
#pragma unroll
      for (int o = 0; o < VEC; ++o) res[o] = PoolOp::finish(acc[0][o], count);
      store_run<T>(out + at, at, Wo, x0, lane, res, packs);
    }
  }
}

template <typename T, int KK, int SS>
__device__ __forceinline__ void rows_any_alignment(T* __restrict__ out, T const* __restrict__ in, int H, int W,
                                                   int Ho, int Wo, long long plane, int x0, int y0, int lane,
                                                   bool packs) {
  using namespace kopt_strategy;
  constexpr int P = pack_for<T>(VEC * SS);
  if (W % P == 0 && aligned_to(in, sizeof(T) * P)) {  // uniform over the grid
    rows<T, KK, SS, P>(out, in, H, W, Ho, Wo, plane, x0, y0, lane, packs);
  } else {
    rows<T, KK, SS, 1>(out, in, H, W, Ho, Wo, plane, x0, y0, lane, packs);
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

// The thread's place: plane, first output column x0 and row y0 (false for a block past the last plane).
// The grid is one-dimensional: x tiles fastest, then y tiles, then planes.
__device__ __forceinline__ bool place(int N, int C, int Ho, int Wo, long long& plane, int& x0, int& y0) {
  using kopt_strategy::ceil_div;
  int const tiles_x = ceil_div(Wo, BX * VEC);
  int const tiles_y = ceil_div(Ho, BY * RY);
  unsigned b = blockIdx.x;
  int const bx = static_cast<int>(b % static_cast<unsigned>(tiles_x));
  b /= static_cast<unsigned>(tiles_x);
  int const by = static_cast<int>(b % static_cast<unsigned>(tiles_y));
  plane = static_cast<long long>(b / static_cast<unsigned>(tiles_y));
  x0 = (bx * BX + static_cast<int>(threadIdx.x)) * VEC;
  y0 = (by * BY + static_cast<int>(threadIdx.y)) * RY;
  return plane < static_cast<long long>(N) * C;
}

// A window compiled in: Ho and Wo from constants (shifts, no division).
template <typename T, int KK, int SS>
__device__ __forceinline__ void windows(T* __restrict__ out, T const* __restrict__ in, int N, int C, int H, int W,
                                        bool packs) {
  int const Ho = (H - KK) / SS + 1;
  int const Wo = (W - KK) / SS + 1;
  long long plane;
  int x0, y0;
  if (!place(N, C, Ho, Wo, plane, x0, y0)) return;  // the whole block
  rows_any_alignment<T, KK, SS>(out, in, H, W, Ho, Wo, plane, x0, y0, static_cast<int>(threadIdx.x) & 31, packs);
}

}  // namespace pool2d_rows

extern "C" __global__ void __launch_bounds__(BX * BY)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int N, int C, int H, int W, int K, int S) {
  using namespace kopt_strategy;
  using namespace pool2d_rows;
  if (K < 1 || S < 1 || H < K || W < K) return;
  bool const packs = aligned_to(out, sizeof({{T}}) * VEC);
  // The row path's offsets inside a plane are 32-bit: a plane of 2^31 elements or more goes direct.
  bool const rows_fit = static_cast<long long>(H) * W <= 0x7fffffffLL;
  // K, S and the plane size are the same for every thread: the branch is uniform, so every lane reaches
  // the shuffles.
  if (rows_fit && K == 2 && S == 2) {
    windows<{{T}}, 2, 2>(out, in, N, C, H, W, packs);
#if KMAX >= 3
  } else if (rows_fit && K == 3 && S == 2) {
    windows<{{T}}, 3, 2>(out, in, N, C, H, W, packs);
  } else if (rows_fit && K == 3 && S == 1) {
    windows<{{T}}, 3, 1>(out, in, N, C, H, W, packs);
#endif
  } else {
    int const Ho = (H - K) / S + 1;
    int const Wo = (W - K) / S + 1;
    long long plane;
    int x0, y0;
    if (!place(N, C, Ho, Wo, plane, x0, y0)) return;
    direct<{{T}}>(out, in, H, W, K, S, Ho, Wo, plane, x0, y0);
  }
}
