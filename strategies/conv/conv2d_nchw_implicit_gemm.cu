// Strategy conv2d_nchw_implicit_gemm, conv2d_nchw family (kernel mode, FP32 and BF16 storage, FP32 FFMA).
// y[n][co][oy][ox] = sum over ci < Cin, ky, kx < K of x[n][ci][oy + ky - pad][ox + kx - pad] *
// w[co][ci][ky][kx] for NCHW x (N x Cin x H x W), w (Cout x Cin x K x K) and y (N x Cout x Ho x Wo), stride
// 1, zero padding pad on every side (Ho = H + 2*pad - K + 1: pad = 0 is a "valid" convolution, pad = K/2 with
// odd K a "same" one); a cross-correlation, as torch.nn.functional.conv2d, no bias. Implicit GEMM
// (conv2d_nchw_gather.cuh): the block computes a BM x BN tile of Y' = W * X', BM output channels by BN
// output pixels, stepping through the Cin*K*K reduction in slices of BK. The slice of W is read with
// 4-element vector loads when its rows allow (Cin*K*K a multiple of 4, w aligned; element loads otherwise)
// and stored transposed; the slice of X' is gathered from x by each thread for a fixed pair of adjacent
// pixels (coalesced along the pixels, the padding and every edge by predication), both converted to FP32.
// Shared memory is double-buffered: the next slice is loaded into registers (all of a thread's loads in
// flight at once) while the current one is multiplied, then stored into the other buffer, one barrier per
// slice. Each thread accumulates a TM x TN register tile (channels x pixels; groups of 4 consecutive, so that
// every fragment is one float4 from shared memory) in FP32 and stores each group of 4 pixels as one vector
// when Ho*Wo is a multiple of 4 (element stores otherwise). Products are summed in increasing k; any sizes
// (odd channel counts and planes, partial tiles, K = 1, pad = 0) work.
// KOPT_CONV_TRANSPOSED (family conv_transpose2d_nchw, with KOPT_CONV_STRIDED): nn.ConvTranspose2d in the
// gather form (conv2d_nchw_gather.cuh), split by output phase: the block's tile is one phase's (phase_of; the
// launch counts one spare tile per phase, which returns at once), its reduction the phase's taps; the entry also
// takes the output padding OPH, OPW; the weight is Cin x Cout x KH x KW, its slice loaded element by element at
// the phase's taps; outputs stored element by element unless every stride is 1.
// KOPT_CONV_3D (families conv3d_ncdhw*, conv_transpose3d_ncdhw*, with KOPT_CONV_STRIDED): nn.Conv3d and
// nn.ConvTranspose3d over NCDHW tensors (conv2d_nchw_gather.cuh's depth axis): the entry takes D before H and
// W and the filter, strides, padding and dilations per axis for the three axes (and OPD, OPH, OPW).
// Knobs: BM, BN (block tile: output channels x output pixels), BK (reduction slice), TM, TN (register
// tile); MIN_BLOCKS blocks per SM that __launch_bounds__ asks registers for.
//
// kopt:knob BM = [32, 64, 128]
// kopt:knob BN = [64, 128, 256]
// kopt:knob BK = [8, 16]
// kopt:knob TM = [4, 8]
// kopt:knob TN = [4, 8]
// kopt:knob MIN_BLOCKS = [1, 2]
// Threads per block between 64 and 256:
// kopt:constraint (BM / TM) * (BN / TN) >= 64 && (BM / TM) * (BN / TN) <= 256
// Every thread loads the same number of 4-element vectors of a W slice:
// kopt:constraint (BM * BK) % ((BM / TM) * (BN / TN) * 4) == 0
// Every thread gathers the same number of rows of one pixel pair of an X' slice:
// kopt:constraint ((BM / TM) * (BN / TN)) % (BN / 2) == 0 && (BK * BN / 2) % ((BM / TM) * (BN / TN)) == 0
// A thread stages at most 32 floats of each slice in registers:
// kopt:constraint (BM + BN) * BK <= 32 * (BM / TM) * (BN / TN)
// Static shared memory (two buffers) at most 48 KiB:
// kopt:constraint 8 * BK * (BM + 4 + BN) <= 49152
// kopt:launch grid=(max(1, ceil_div({{ARG3}} * max(0, {{ARG6}} + 2 * {{ARG9}} - {{ARG8}} + 1) * max(0, {{ARG7}} + 2 * {{ARG9}} - {{ARG8}} + 1), BN)), max(1, ceil_div({{ARG5}}, BM))) block=((BM / TM) * (BN / TN)) kernel={{ENTRY}}
// kopt:include conv2d_nchw_gather.cuh

#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 16
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 1
#endif

namespace conv2d_nchw_implicit_gemm {

using conv_nchw_gather::Elem;
constexpr int kVec = 4;  // elements per W vector load, pixels per output vector store
constexpr int kThreads = (BM / TM) * (BN / TN);
constexpr int kAStride = BM + 4;  // floats per k-row of the transposed W slice
constexpr int kAVectors = BM * BK / (kThreads * kVec);
constexpr int kPairs = BN / 2;                 // pixel pairs of a tile
constexpr int kRows = BK * kPairs / kThreads;  // X' rows a thread gathers per slice
constexpr int kRowGroups = TM / 4;             // a thread's channels: kRowGroups groups of 4
constexpr int kColGroups = TN / 4;             // a thread's pixels: kColGroups groups of 4
constexpr int kRowSpan = BM / kRowGroups;
constexpr int kColSpan = BN / kColGroups;

static_assert(TM % 4 == 0 && TN % 4 == 0, "TM and TN are 4 or 8");
static_assert(BM % TM == 0 && BN % TN == 0, "the register tile must divide the block tile");
static_assert(kThreads >= 32 && kThreads <= 1024, "threads per block out of range");
static_assert(kAVectors * kThreads * kVec == BM * BK, "W slice loads must divide evenly among threads");
static_assert(kThreads % kPairs == 0 && kRows * kThreads == BK * kPairs, "X' rows divide evenly");
static_assert(BK % kVec == 0, "W slices are loaded in 4-element vectors");

struct Tiles {
  float a[2][BK][kAStride];  // a[buf][k][c] = W[co0 + c][k0 + k]
  float b[2][BK][BN];        // b[buf][k][j] = X'[k0 + k][pix0 + j]
};

struct Staged {
  float a[kAVectors][kVec];
  float b[kRows][2];
};

// kVec consecutive elements src[0..], the ones at index >= limit read as 0; one vector access when allowed.
__device__ __forceinline__ void load_vector(float (&out)[kVec], Elem const* src, bool in_range, int limit,
                                            bool vec_ok) {
  if (vec_ok && in_range && limit >= kVec) {
    kopt_strategy::Pack<Elem, kVec> const p = kopt_strategy::load_pack<Elem, kVec>(src);
#pragma unroll
    for (int v = 0; v < kVec; ++v) out[v] = kopt_strategy::to_float(p.v[v]);
  } else {
#pragma unroll
    for (int v = 0; v < kVec; ++v) out[v] = (in_range && v < limit) ? kopt_strategy::to_float(src[v]) : 0.0f;
  }
}

// The slice starting at k0: W rows co0.. (vectors), and X' rows row0 + i of the thread's pixel pair, whose
// first tap is `first` (cursor of k0 + row0).
__device__ __forceinline__ void load_slice(Staged& s, Elem const* __restrict__ w,
                                           conv_nchw_gather::Geometry const& g, int co0, int k0, bool w_vec,
                                           conv_nchw_gather::Pixel const& p0,
                                           conv_nchw_gather::Pixel const& p1, conv_nchw_gather::Tap first,
                                           conv_nchw_gather::Tap const& one) {
  int const tid = static_cast<int>(threadIdx.x);
#pragma unroll
  for (int i = 0; i < kAVectors; ++i) {
    int const e = tid + i * kThreads;  // vector e of the BM x (BK / kVec) slice
    int const co = co0 + e / (BK / kVec);
    int const k = k0 + (e % (BK / kVec)) * kVec;
#if KOPT_CONV_TRANSPOSED
    // W'[co][k] of the block's phase, w[ci][co][kz][ky][kx] at its taps: element by element, the vector's first
    // tap split once and the next ones reached by the cursor's carries.
    conv_nchw_gather::Window const f = conv_nchw_gather::cursor_window(g);
    conv_nchw_gather::Tap t = conv_nchw_gather::split(k, f);
#pragma unroll
    for (int v = 0; v < kVec; ++v) {
      s.a[i][v] = conv_nchw_gather::transposed_weight(w, g, co, k + v, t);
      if (v + 1 < kVec) conv_nchw_gather::advance(t, one, f);
    }
    (void)w_vec;
#else
    load_vector(s.a[i], w + static_cast<long long>(co) * g.taps + k, co < g.Cout, g.taps - k, w_vec);
#endif
  }
  conv_nchw_gather::Tap t = first;
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    s.b[i][0] = kopt_strategy::to_float(conv_nchw_gather::tap(p0, t, g));
    s.b[i][1] = kopt_strategy::to_float(conv_nchw_gather::tap(p1, t, g));
    if (i + 1 < kRows) conv_nchw_gather::advance(t, one, conv_nchw_gather::window(g));
  }
}

__device__ __forceinline__ void store_slice(Tiles& t, int buf, Staged const& s, int pair, int row0) {
  int const tid = static_cast<int>(threadIdx.x);
#pragma unroll
  for (int i = 0; i < kAVectors; ++i) {
    int const e = tid + i * kThreads;
    int const c = e / (BK / kVec);
    int const k = (e % (BK / kVec)) * kVec;
#pragma unroll
    for (int v = 0; v < kVec; ++v) t.a[buf][k + v][c] = s.a[i][v];
  }
#pragma unroll
  for (int i = 0; i < kRows; ++i)
    *reinterpret_cast<float2*>(&t.b[buf][row0 + i][2 * pair]) = make_float2(s.b[i][0], s.b[i][1]);
}

__device__ __forceinline__ void multiply_slice(float (&acc)[TM][TN], Tiles const& t, int buf, int ty,
                                               int tx) {
#pragma unroll
  for (int k = 0; k < BK; ++k) {
    float a_frag[TM];
    float b_frag[TN];
#pragma unroll
    for (int g = 0; g < kRowGroups; ++g) {
      float4 const v = *reinterpret_cast<float4 const*>(&t.a[buf][k][g * kRowSpan + ty * 4]);
      a_frag[g * 4 + 0] = v.x;
      a_frag[g * 4 + 1] = v.y;
      a_frag[g * 4 + 2] = v.z;
      a_frag[g * 4 + 3] = v.w;
    }
#pragma unroll
    for (int g = 0; g < kColGroups; ++g) {
      float4 const v = *reinterpret_cast<float4 const*>(&t.b[buf][k][g * kColSpan + tx * 4]);
      b_frag[g * 4 + 0] = v.x;
      b_frag[g * 4 + 1] = v.y;
      b_frag[g * 4 + 2] = v.z;
      b_frag[g * 4 + 3] = v.w;
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
#pragma unroll
      for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a_frag[i], b_frag[j], acc[i][j]);
    }
  }
}

}  // namespace conv2d_nchw_implicit_gemm

// clang-format would split the placeholders of the two-argument __launch_bounds__ line.
// clang-format off
extern "C" __global__ void __launch_bounds__((BM / TM) * (BN / TN), MIN_BLOCKS)
    {{ENTRY}}({{T}}* __restrict__ y, const {{T}}* __restrict__ x, const {{T}}* __restrict__ w, int N,
                int Cin, int Cout,
#if KOPT_CONV_3D
                int D, int H, int W, int KD, int KH, int KW, int SD, int SH, int SW, int PD, int PH, int PW,
                int DD, int DH, int DW
#if KOPT_CONV_TRANSPOSED
                , int OPD, int OPH, int OPW
#endif
#elif KOPT_CONV_STRIDED
                int H, int W, int KH, int KW, int SH, int SW, int PH, int PW, int DH, int DW
#if KOPT_CONV_TRANSPOSED
                , int OPH, int OPW
#endif
#else
                int H, int W,
                int K, int pad
#endif
#if KOPT_CONV_BIAS
                , const {{T}}* __restrict__ bias
#endif
#if KOPT_CONV_CHANNEL
                , const {{T}}* __restrict__ channel
#endif
                ) {
  // clang-format on
  using namespace conv2d_nchw_implicit_gemm;
#if KOPT_CONV_CHANNEL
  conv_nchw_gather::Epilogue const epilogue{bias, channel};
#elif KOPT_CONV_BIAS
  conv_nchw_gather::Epilogue const epilogue{bias};
#else
  conv_nchw_gather::Epilogue const epilogue{};
#endif
  using conv_nchw_gather::Tap;
#if KOPT_CONV_3D && KOPT_CONV_TRANSPOSED
  conv_nchw_gather::Geometry g = conv_nchw_gather::geometry_transposed_3d(
      N, Cin, Cout, D, H, W, KD, KH, KW, SD, SH, SW, PD, PH, PW, DD, DH, DW, OPD, OPH, OPW);
#elif KOPT_CONV_3D
  conv_nchw_gather::Geometry const g =
      conv_nchw_gather::geometry_3d(N, Cin, Cout, D, H, W, KD, KH, KW, SD, SH, SW, PD, PH, PW, DD, DH, DW);
#elif KOPT_CONV_TRANSPOSED
  conv_nchw_gather::Geometry g =
      conv_nchw_gather::geometry_transposed(N, Cin, Cout, H, W, KH, KW, SH, SW, PH, PW, DH, DW, OPH, OPW);
#elif KOPT_CONV_STRIDED
  conv_nchw_gather::Geometry const g =
      conv_nchw_gather::geometry(N, Cin, Cout, H, W, KH, KW, SH, SW, PH, PW, DH, DW);
#else
  conv_nchw_gather::Geometry const g = conv_nchw_gather::geometry(N, Cin, Cout, H, W, K, pad);
#endif
  if (!conv_nchw_gather::has_outputs(g, N)) return;
#if KOPT_CONV_TRANSPOSED
  // The block's phase (its sub-filter and outputs) and its tile of them; none for the launch's spare blocks.
  long long tile = blockIdx.x;
  if (!conv_nchw_gather::phase_of(g, N, tile, BN)) return;
#endif
  __shared__ __align__(16) Tiles tiles;

  int const tid = static_cast<int>(threadIdx.x);
#if KOPT_CONV_TRANSPOSED
  long long const pix0 = tile * BN;
#else
  long long const pix0 = static_cast<long long>(blockIdx.x) * BN;
#endif
  int const co0 = static_cast<int>(blockIdx.y) * BM;
  int const tx = tid % (BN / TN);
  int const ty = tid / (BN / TN);

  // The gather: pixel pair `pair` of the tile, X' rows row0 .. row0 + kRows - 1 of every slice.
  int const pair = tid % kPairs;
  int const row0 = (tid / kPairs) * kRows;
  conv_nchw_gather::Pixel const p0 = conv_nchw_gather::pixel(x, g, pix0 + 2 * pair);
  conv_nchw_gather::Pixel const p1 = conv_nchw_gather::pixel(x, g, pix0 + 2 * pair + 1);
  // No taps at all when a filter extent is <= 0; the cursors are then never used.
  conv_nchw_gather::Window const f = conv_nchw_gather::cursor_window(g);
  Tap const one = conv_nchw_gather::split(1, f);
  Tap const slice_step = conv_nchw_gather::split(BK, f);
  Tap first = conv_nchw_gather::split(row0, f);  // the cursor of k0 + row0

  // Uniform per block: a W row starts on a vector boundary when Cin*K*K is a multiple of kVec.
  bool const w_vec = g.taps % kVec == 0 && kopt_strategy::aligned_to(w, kVec * sizeof(Elem));
#if KOPT_CONV_TRANSPOSED
  bool const y_vec = conv_nchw_gather::columns_contiguous(g) && g.out_plane % kVec == 0 &&
                     kopt_strategy::aligned_to(y, kVec * sizeof(Elem));
#else
  bool const y_vec = g.out_plane % kVec == 0 && kopt_strategy::aligned_to(y, kVec * sizeof(Elem));
#endif

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i) {
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;
  }

  Staged staged;
  if (g.taps > 0) {
    load_slice(staged, w, g, co0, 0, w_vec, p0, p1, first, one);
    store_slice(tiles, 0, staged, pair, row0);
    __syncthreads();
  }
  int buf = 0;
  for (int k0 = 0; k0 < g.taps; k0 += BK) {
    bool const has_next = k0 + BK < g.taps;
    if (has_next) {
      conv_nchw_gather::advance(first, slice_step, f);
      load_slice(staged, w, g, co0, k0 + BK, w_vec, p0, p1, first, one);
    }
    multiply_slice(acc, tiles, buf, ty, tx);
    // The other buffer was last read in the previous iteration, which ended with a barrier.
    if (has_next) store_slice(tiles, buf ^ 1, staged, pair, row0);
    __syncthreads();
    buf ^= 1;
  }

  // Epilogue: channel co0 + (i / 4) * kRowSpan + ty * 4 + i % 4, pixels m .. m + 3 of each column group.
#pragma unroll
  for (int cg = 0; cg < kColGroups; ++cg) {
    long long const m = pix0 + cg * kColSpan + tx * 4;
    if (m >= g.pixels) continue;
    long long offset[kVec];  // y offset of pixel m + v, less co * Ho * Wo; -1 past the last pixel
    if (y_vec) {
      long long const first_offset = conv_nchw_gather::column_offset(g, m);
#pragma unroll
      for (int v = 0; v < kVec; ++v) offset[v] = first_offset + v;
    } else {
#pragma unroll
      for (int v = 0; v < kVec; ++v)
        offset[v] = m + v < g.pixels ? conv_nchw_gather::column_offset(g, m + v) : -1;
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
      int const co = co0 + (i / 4) * kRowSpan + ty * 4 + (i % 4);
      if (co >= Cout) continue;
      long long const channel = static_cast<long long>(co) * g.out_plane;
      if (y_vec) {  // Ho*Wo % 4 == 0 and m % 4 == 0: the 4 pixels are in one image, 16-byte aligned
        kopt_strategy::Pack<Elem, kVec> p;
#pragma unroll
        for (int v = 0; v < kVec; ++v)
          p.v[v] = kopt_strategy::from_float<Elem>(epilogue(acc[i][cg * 4 + v], co));
        kopt_strategy::store_pack<Elem, kVec>(y + offset[0] + channel, p);
      } else {
#pragma unroll
        for (int v = 0; v < kVec; ++v) {
          if (offset[v] >= 0)
            y[offset[v] + channel] = kopt_strategy::from_float<Elem>(epilogue(acc[i][cg * 4 + v], co));
        }
      }
    }
  }
}
