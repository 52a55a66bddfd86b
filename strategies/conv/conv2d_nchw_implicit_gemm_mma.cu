// Strategy conv2d_nchw_implicit_gemm_mma, conv2d_nchw family (kernel mode, BF16 only, sm_80+).
// y[n][co][oy][ox] = sum over ci < Cin, ky, kx < K of x[n][ci][oy + ky - pad][ox + kx - pad] *
// w[co][ci][ky][kx] for NCHW x (N x Cin x H x W), w (Cout x Cin x K x K) and y (N x Cout x Ho x Wo) in BF16,
// stride 1, zero padding pad (Ho = H + 2*pad - K + 1), no bias; FP32 accumulation on the tensor cores, one
// rounding to BF16. Implicit GEMM (conv2d_nchw_gather.cuh): the block computes a BM x BN tile of Y' = W * X'
// (output channels x output pixels) with WARPS warps arranged 2 x (WARPS / 2); each warp issues
// mma.sync.m16n8k16 (BF16 in, FP32 accumulators in registers) on fragments read with ldmatrix: W slices are
// stored [co][k] (ldmatrix, the row operand) and X' slices [k][pixel] (ldmatrix.trans, the column operand),
// rows padded by 8 elements for conflict-free reads. The reduction (Cin*K*K) is walked in slices of BK
// through two shared-memory stages: the W slice comes by 16-byte cp.async copies (element copies with zero
// fill when Cin*K*K is not a multiple of 8 or w is unaligned), the X' slice is gathered by each thread for a
// fixed pair of adjacent pixels (coalesced along the pixels, padding and edges by predication) into registers
// while the current slice is multiplied, then stored as BF16 pairs; one barrier per slice. The epilogue
// stores pairs of adjacent pixels as one 4-byte BF16 pair when Ho*Wo is even (single elements otherwise).
// Any sizes work (odd channel counts and planes, partial tiles, K = 1, pad = 0).
// KOPT_CONV_3D (families conv3d_ncdhw*, with KOPT_CONV_STRIDED): nn.Conv3d over NCDHW tensors, the weight
// Cout x Cin*KD*KH*KW rows as for 2-D, the input gathered by conv2d_nchw_gather.cuh's depth-aware cursor.
// Knobs: BM (output channels per block), BN (output pixels per block), BK (reduction slice), WARPS;
// MIN_BLOCKS blocks per SM that __launch_bounds__ asks registers for (2: at most 128 registers a thread
// with 8 warps, which the default tile fits without spilling).
//
// kopt:knob BM = [64, 128]
// kopt:knob BN = [64, 128, 256]
// kopt:knob BK = [32, 64]
// kopt:knob WARPS = [4, 8]
// kopt:knob MIN_BLOCKS = [1, 2]
// A warp's accumulators are at most 128 floats per thread:
// kopt:constraint (BM / 2) * (BN / (WARPS / 2)) <= 4096
// A warp's pixels are a multiple of 16 (one ldmatrix.x4.trans covers 16 columns):
// kopt:constraint (BN / (WARPS / 2)) % 16 == 0
// Every thread gathers the same number (at most 16) of X' rows of one pixel pair, and copies the same
// number of 16-byte chunks of a W slice:
// kopt:constraint (WARPS * 32) % (BN / 2) == 0 && (BK * BN / 2) % (WARPS * 32) == 0 && BK * BN / 2 <= 16 * WARPS * 32
// kopt:constraint (BM * BK / 8) % (WARPS * 32) == 0
// Dynamic shared memory (two stages) at most 227 KiB:
// kopt:constraint 2 * (BM * (BK + 8) + BK * (BN + 8)) * 2 <= 232448
// kopt:launch grid=(max(1, ceil_div({{ARG3}} * max(0, {{ARG6}} + 2 * {{ARG9}} - {{ARG8}} + 1) * max(0, {{ARG7}} + 2 * {{ARG9}} - {{ARG8}} + 1), BN)), max(1, ceil_div({{ARG5}}, BM))) block=(WARPS * 32) shared=(2 * (BM * (BK + 8) + BK * (BN + 8)) * 2) kernel={{ENTRY}}
// kopt:include conv2d_nchw_gather.cuh

#if KOPT_CONV_TRANSPOSED
#error "conv2d_nchw_implicit_gemm_mma has no transposed form (its weight copies assume Cout x Cin*KH*KW rows)"
#endif

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 32
#endif
#ifndef WARPS
#define WARPS 8
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 2
#endif

namespace conv2d_nchw_implicit_gemm_mma {

using conv_nchw_gather::Elem;
constexpr int kThreads = WARPS * 32;
constexpr int kWarpsN = WARPS / 2;
constexpr int kWarpM = BM / 2;        // output channels per warp
constexpr int kWarpN = BN / kWarpsN;  // output pixels per warp
constexpr int kFragM = kWarpM / 16;   // m16 fragments per warp
constexpr int kFragN = kWarpN / 8;    // n8 fragments per warp
constexpr int kAStride = BK + 8;      // elements per row of a W slice (padding: conflict-free ldmatrix)
constexpr int kBStride = BN + 8;      // elements per row of an X' slice
constexpr int kAStage = BM * kAStride;
constexpr int kBStage = BK * kBStride;
constexpr int kAChunks = BM * BK / 8 / kThreads;  // 16-byte chunks of a W slice per thread
constexpr int kPairs = BN / 2;                    // pixel pairs of a tile
constexpr int kRows = BK * kPairs / kThreads;     // X' rows a thread gathers per slice

static_assert(sizeof(Elem) == 2, "conv2d_nchw_implicit_gemm_mma is for BF16 storage");
static_assert(WARPS == 4 || WARPS == 8, "WARPS is 4 or 8");
static_assert(kWarpM % 16 == 0 && kWarpN % 16 == 0, "a warp tile is made of 16 x 16 pieces");
static_assert(BK % 16 == 0, "BK is a multiple of the mma K (16)");
static_assert(kAChunks * kThreads * 8 == BM * BK, "W slices are copied in 16-byte chunks spread evenly");
static_assert(kThreads % kPairs == 0 && kRows * kThreads == BK * kPairs, "X' rows divide evenly");

__device__ __forceinline__ unsigned smem_address(void const* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// 16 bytes from global memory to shared memory; bytes past src_bytes (0 or 16) are zero-filled.
__device__ __forceinline__ void cp_async_16(void* dst, void const* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_address(dst)), "l"(src),
               "r"(src_bytes)
               : "memory");
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
__device__ __forceinline__ void cp_async_wait_all() {
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
}

__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], void const* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_address(p)));
}
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned (&r)[4], void const* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_address(p)));
}

// d = a * b + d for one m16n8k16 BF16 fragment with FP32 accumulators.
__device__ __forceinline__ void mma_bf16(float (&d)[4], unsigned const (&a)[4], unsigned b0, unsigned b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Starts the copy of the W slice k0 (BM x BK, rows co0..) into a_s; rows past Cout and columns past the
// reduction's end are 0.
__device__ __forceinline__ void load_weights(Elem* a_s, Elem const* __restrict__ w,
                                             conv_nchw_gather::Geometry const& g, int co0, int k0,
                                             bool w_vec) {
  int const tid = static_cast<int>(threadIdx.x);
#pragma unroll
  for (int i = 0; i < kAChunks; ++i) {
    int const c = tid + i * kThreads;
    int const r = c / (BK / 8);
    int const kc = (c % (BK / 8)) * 8;
    int const co = co0 + r;
    int const k = k0 + kc;
    Elem* dst = a_s + r * kAStride + kc;
    Elem const* src = w + static_cast<long long>(co) * g.taps + k;
    if (w_vec) {
      bool const ok = co < g.Cout && k < g.taps;  // taps % 8 == 0: the chunk ends by the row's end
      cp_async_16(dst, ok ? src : w, ok ? 16 : 0);
    } else {
      bool const row_ok = co < g.Cout;
      kopt_strategy::Pack<Elem, 8> p;
#pragma unroll
      for (int v = 0; v < 8; ++v)
        p.v[v] = (row_ok && k + v < g.taps) ? src[v] : kopt_strategy::from_float<Elem>(0.0f);
      kopt_strategy::store_pack<Elem, 8>(dst, p);
    }
  }
}

// The thread's X' rows of slice k0 for its pixel pair (p0, p1), from the cursor `first` of k0 + its first
// row.
__device__ __forceinline__ void gather(kopt_strategy::Pack<Elem, 2> (&v)[kRows],
                                       conv_nchw_gather::Geometry const& g, conv_nchw_gather::Pixel const& p0,
                                       conv_nchw_gather::Pixel const& p1, conv_nchw_gather::Tap first,
                                       conv_nchw_gather::Tap const& one) {
  conv_nchw_gather::Tap t = first;
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    v[i].v[0] = conv_nchw_gather::tap(p0, t, g);
    v[i].v[1] = conv_nchw_gather::tap(p1, t, g);
    if (i + 1 < kRows) conv_nchw_gather::advance(t, one, conv_nchw_gather::window(g));
  }
}

__device__ __forceinline__ void store_gathered(Elem* b_s, kopt_strategy::Pack<Elem, 2> const (&v)[kRows],
                                               int row0, int pair) {
#pragma unroll
  for (int i = 0; i < kRows; ++i)
    kopt_strategy::store_pack<Elem, 2>(b_s + (row0 + i) * kBStride + 2 * pair, v[i]);
}

__device__ __forceinline__ void multiply_slice(float (&acc)[kFragM][kFragN][4], Elem const* a_s,
                                               Elem const* b_s, int warp_m0, int warp_n0, int lane) {
#pragma unroll
  for (int kk = 0; kk < BK; kk += 16) {
    unsigned a_frag[kFragM][4];
    unsigned b_frag[kFragN][2];
#pragma unroll
    for (int mi = 0; mi < kFragM; ++mi) {
      ldmatrix_x4(a_frag[mi], a_s + (warp_m0 + mi * 16 + (lane % 16)) * kAStride + kk + (lane / 16) * 8);
    }
#pragma unroll
    for (int nj = 0; nj < kFragN / 2; ++nj) {
      unsigned r[4];
      ldmatrix_x4_trans(r, b_s + (kk + (lane % 16)) * kBStride + warp_n0 + nj * 16 + (lane / 16) * 8);
      b_frag[2 * nj][0] = r[0];
      b_frag[2 * nj][1] = r[1];
      b_frag[2 * nj + 1][0] = r[2];
      b_frag[2 * nj + 1][1] = r[3];
    }
#pragma unroll
    for (int mi = 0; mi < kFragM; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kFragN; ++ni) mma_bf16(acc[mi][ni], a_frag[mi], b_frag[ni][0], b_frag[ni][1]);
    }
  }
}

}  // namespace conv2d_nchw_implicit_gemm_mma

// clang-format would split the placeholders of the two-argument __launch_bounds__ line.
// clang-format off
extern "C" __global__ void __launch_bounds__(WARPS * 32, MIN_BLOCKS)
    {{ENTRY}}({{T}}* __restrict__ y, const {{T}}* __restrict__ x, const {{T}}* __restrict__ w, int N,
                int Cin, int Cout,
#if KOPT_CONV_3D
                int D, int H, int W, int KD, int KH, int KW, int SD, int SH, int SW, int PD, int PH, int PW,
                int DD, int DH, int DW
#elif KOPT_CONV_STRIDED
                int H, int W, int KH, int KW, int SH, int SW, int PH, int PW, int DH, int DW
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
  using namespace conv2d_nchw_implicit_gemm_mma;
#if KOPT_CONV_CHANNEL
  conv_nchw_gather::Epilogue const epilogue{bias, channel};
#elif KOPT_CONV_BIAS
  conv_nchw_gather::Epilogue const epilogue{bias};
#else
  conv_nchw_gather::Epilogue const epilogue{};
#endif
  using conv_nchw_gather::Tap;
#if KOPT_CONV_3D
  conv_nchw_gather::Geometry const g =
      conv_nchw_gather::geometry_3d(N, Cin, Cout, D, H, W, KD, KH, KW, SD, SH, SW, PD, PH, PW, DD, DH, DW);
#elif KOPT_CONV_STRIDED
  conv_nchw_gather::Geometry const g =
      conv_nchw_gather::geometry(N, Cin, Cout, H, W, KH, KW, SH, SW, PH, PW, DH, DW);
#else
  conv_nchw_gather::Geometry const g = conv_nchw_gather::geometry(N, Cin, Cout, H, W, K, pad);
#endif
  if (!conv_nchw_gather::has_outputs(g, N)) return;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  Elem* const a_smem = reinterpret_cast<Elem*>(smem_raw);
  Elem* const b_smem = a_smem + 2 * kAStage;

  int const tid = static_cast<int>(threadIdx.x);
  int const lane = tid % 32;
  int const warp = tid / 32;
  int const warp_m0 = (warp / kWarpsN) * kWarpM;
  int const warp_n0 = (warp % kWarpsN) * kWarpN;
  long long const pix0 = static_cast<long long>(blockIdx.x) * BN;
  int const co0 = static_cast<int>(blockIdx.y) * BM;

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

  // Uniform per block: 16-byte chunks of W rows are aligned when Cin*K*K is a multiple of 8.
  bool const w_vec = g.taps % 8 == 0 && kopt_strategy::aligned_to(w, 16);
  bool const y_pair = g.out_plane % 2 == 0 && kopt_strategy::aligned_to(y, 4);

  float acc[kFragM][kFragN][4];
#pragma unroll
  for (int mi = 0; mi < kFragM; ++mi) {
#pragma unroll
    for (int ni = 0; ni < kFragN; ++ni) {
#pragma unroll
      for (int v = 0; v < 4; ++v) acc[mi][ni][v] = 0.0f;
    }
  }

  kopt_strategy::Pack<Elem, 2> gathered[kRows];
  int const slices = (g.taps + BK - 1) / BK;
  if (slices > 0) {
    load_weights(a_smem, w, g, co0, 0, w_vec);
    cp_async_commit();
    gather(gathered, g, p0, p1, first, one);
    store_gathered(b_smem, gathered, row0, pair);
    cp_async_wait_all();
    __syncthreads();
  }
  for (int kt = 0; kt < slices; ++kt) {
    int const s = kt & 1;
    bool const has_next = kt + 1 < slices;
    // Stage s ^ 1 was last read in iteration kt - 1, which ended with a barrier.
    if (has_next) {
      load_weights(a_smem + (s ^ 1) * kAStage, w, g, co0, (kt + 1) * BK, w_vec);
      cp_async_commit();
      conv_nchw_gather::advance(first, slice_step, f);
      gather(gathered, g, p0, p1, first, one);
    }
    multiply_slice(acc, a_smem + s * kAStage, b_smem + s * kBStage, warp_m0, warp_n0, lane);
    if (has_next) {
      store_gathered(b_smem + (s ^ 1) * kBStage, gathered, row0, pair);
      cp_async_wait_all();
    }
    __syncthreads();
  }

  // Epilogue. Layout of m16n8: c0, c1 at (channel g, pixels 2t, 2t + 1); c2, c3 at channel g + 8.
  int const gq = lane / 4;
  int const t4 = lane % 4;
#pragma unroll
  for (int ni = 0; ni < kFragN; ++ni) {
    long long const m = pix0 + warp_n0 + ni * 8 + 2 * t4;  // even: with Ho*Wo even, m + 1 is in m's image
    if (m >= g.pixels) continue;
    long long const offset0 = conv_nchw_gather::column_offset(g, m);
    long long const offset1 =
        y_pair ? offset0 + 1 : (m + 1 < g.pixels ? conv_nchw_gather::column_offset(g, m + 1) : -1);
#pragma unroll
    for (int mi = 0; mi < kFragM; ++mi) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        int const co = co0 + warp_m0 + mi * 16 + gq + 8 * h;
        if (co >= Cout) continue;
        long long const channel = static_cast<long long>(co) * g.out_plane;
        float const v0 = epilogue(acc[mi][ni][2 * h], co);
        float const v1 = epilogue(acc[mi][ni][2 * h + 1], co);
        if (y_pair) {
          kopt_strategy::Pack<Elem, 2> p;
          p.v[0] = kopt_strategy::from_float<Elem>(v0);
          p.v[1] = kopt_strategy::from_float<Elem>(v1);
          kopt_strategy::store_pack<Elem, 2>(y + offset0 + channel, p);
        } else {
          y[offset0 + channel] = kopt_strategy::from_float<Elem>(v0);
          if (offset1 >= 0) y[offset1 + channel] = kopt_strategy::from_float<Elem>(v1);
        }
      }
    }
  }
}
