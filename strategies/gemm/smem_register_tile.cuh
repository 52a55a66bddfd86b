// The shared-memory, register-tiled tile of C = A * B shared by smem_register_tiled,
// batched_smem_register_tiled, split_k and linear_register_tiled (include lines, docs/strategies.md): knob
// defaults, the loading, staging and multiplying of one K slice, and the tile kernel. split_k defines BK
// (fixed there), TM and TN before the include. KOPT_GEMM_B_TRANSPOSED, defined before the include, takes B as
// its transpose (N x K row-major, nn.Linear's weight): its slices are read along K like A's and stored
// transposed in padded rows, so the multiply is unchanged.

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 8
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif

namespace smem_register_tiled {

using Elem = {{T}};
constexpr int kVec = 4;  // elements per global vector load
constexpr int kThreads = (BM / TM) * (BN / TN);
constexpr int kAStride = BM + 4;  // floats per k-row of the transposed A slice
#ifdef KOPT_GEMM_B_TRANSPOSED
constexpr bool kBTransposed = true;
constexpr int kBStride = BN + 4;  // floats per k-row of the transposed B slice
#else
constexpr bool kBTransposed = false;
constexpr int kBStride = BN;
#endif
constexpr int kAVectors = BM * BK / (kThreads * kVec);
constexpr int kBVectors = BK * BN / (kThreads * kVec);
constexpr int kRowGroups = TM / 4;  // a thread's rows: kRowGroups groups of 4
constexpr int kColGroups = TN / 4;
constexpr int kRowSpan = BM / kRowGroups;  // distance between a thread's row groups
constexpr int kColSpan = BN / kColGroups;

static_assert(TM % 4 == 0 && TN % 4 == 0, "TM and TN are 4 or 8");
static_assert(BM % TM == 0 && BN % TN == 0, "the register tile must divide the block tile");
static_assert(kThreads >= 32 && kThreads <= 1024, "threads per block out of range");
static_assert(kAVectors * kThreads * kVec == BM * BK, "A slice loads must divide evenly among threads");
static_assert(kBVectors * kThreads * kVec == BK * BN, "B slice loads must divide evenly among threads");
static_assert(BK % kVec == 0 && BN % kVec == 0, "slices are loaded in 4-element vectors");

struct Tiles {
  float a[2][BK][kAStride];  // a[buf][k][m] = A[row0 + m][k0 + k]
  float b[2][BK][kBStride];  // b[buf][k][n] = B[k0 + k][col0 + n]
};

struct Staged {
  float a[kAVectors][kVec];
  float b[kBVectors][kVec];
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

// Slice k0 of the block's K range [.., k_end): A columns and B rows at or past k_end read as 0.
__device__ __forceinline__ void load_slice(Staged& s, Elem const* __restrict__ A, Elem const* __restrict__ B,
                                           int M, int N, int K, int k_end, int row0, int col0, int k0,
                                           bool a_vec, bool b_vec) {
  int const tid = static_cast<int>(threadIdx.x);
#pragma unroll
  for (int i = 0; i < kAVectors; ++i) {
    int const e = tid + i * kThreads;  // vector e of the BM x (BK / kVec) slice
    int const gm = row0 + e / (BK / kVec);
    int const gk = k0 + (e % (BK / kVec)) * kVec;
    load_vector(s.a[i], A + static_cast<long long>(gm) * K + gk, gm < M, k_end - gk, a_vec);
  }
#pragma unroll
  for (int i = 0; i < kBVectors; ++i) {
    int const e = tid + i * kThreads;
    if constexpr (kBTransposed) {  // vector e of the BN x (BK / kVec) slice of the N x K transpose
      int const gn = col0 + e / (BK / kVec);
      int const gk = k0 + (e % (BK / kVec)) * kVec;
      load_vector(s.b[i], B + static_cast<long long>(gn) * K + gk, gn < N, k_end - gk, b_vec);
    } else {  // vector e of the BK x (BN / kVec) slice
      int const gk = k0 + e / (BN / kVec);
      int const gn = col0 + (e % (BN / kVec)) * kVec;
      load_vector(s.b[i], B + static_cast<long long>(gk) * N + gn, gk < k_end, N - gn, b_vec);
    }
  }
}

__device__ __forceinline__ void store_slice(Tiles& t, int buf, Staged const& s) {
  int const tid = static_cast<int>(threadIdx.x);
#pragma unroll
  for (int i = 0; i < kAVectors; ++i) {
    int const e = tid + i * kThreads;
    int const m = e / (BK / kVec);
    int const k = (e % (BK / kVec)) * kVec;
#pragma unroll
    for (int v = 0; v < kVec; ++v) t.a[buf][k + v][m] = s.a[i][v];
  }
#pragma unroll
  for (int i = 0; i < kBVectors; ++i) {
    int const e = tid + i * kThreads;
    if constexpr (kBTransposed) {
      int const n = e / (BK / kVec);
      int const k = (e % (BK / kVec)) * kVec;
#pragma unroll
      for (int v = 0; v < kVec; ++v) t.b[buf][k + v][n] = s.b[i][v];
    } else {
      int const k = e / (BN / kVec);
      int const n = (e % (BN / kVec)) * kVec;
      *reinterpret_cast<float4*>(&t.b[buf][k][n]) = make_float4(s.b[i][0], s.b[i][1], s.b[i][2], s.b[i][3]);
    }
  }
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

// acc = the block's product over the K range [k_begin, k_end) through the double-buffered tiles: the next
// slice is loaded into registers while multiply(buf) multiplies slice buf, then stored into the other one.
template <typename Multiply>
__device__ __forceinline__ void multiply_k_range(float (&acc)[TM][TN], Tiles& tiles,
                                                 Elem const* __restrict__ A, Elem const* __restrict__ B,
                                                 int M, int N, int K, int k_begin, int k_end, int row0,
                                                 int col0, bool a_vec, bool b_vec, Multiply multiply) {
#pragma unroll
  for (int i = 0; i < TM; ++i) {
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;
  }

  Staged staged;
  if (k_begin < k_end) {
    load_slice(staged, A, B, M, N, K, k_end, row0, col0, k_begin, a_vec, b_vec);
    store_slice(tiles, 0, staged);
    __syncthreads();
  }
  int buf = 0;
  for (int k0 = k_begin; k0 < k_end; k0 += BK) {
    bool const has_next = k0 + BK < k_end;
    if (has_next) load_slice(staged, A, B, M, N, K, k_end, row0, col0, k0 + BK, a_vec, b_vec);
    multiply(buf);
    // The other buffer was last read in the previous iteration, which ended with a barrier.
    if (has_next) store_slice(tiles, buf ^ 1, staged);
    __syncthreads();
    buf ^= 1;
  }
}

// The value of C at (row, col) from the FP32 product there: as is, or a fused epilogue (linear: + bias, op).
struct NoEpilogue {
  __device__ __forceinline__ float operator()(float v, int /*row*/, int /*col*/) const { return v; }
};

// The BM x BN tile at (blockIdx.y, blockIdx.x) of C = epilogue(A * B); the epilogue is called only for
// elements inside C.
template <typename Epilogue = NoEpilogue>
__device__ __forceinline__ void gemm_tile(Elem* __restrict__ C, Elem const* __restrict__ A,
                                          Elem const* __restrict__ B, int M, int N, int K,
                                          Epilogue epilogue = {}) {
  __shared__ __align__(16) Tiles tiles;
  int const tid = static_cast<int>(threadIdx.x);
  int const row0 = static_cast<int>(blockIdx.y) * BM;
  int const col0 = static_cast<int>(blockIdx.x) * BN;
  int const tx = tid % (BN / TN);
  int const ty = tid / (BN / TN);
  // Uniform per block: a row of A (B, C) starts on a vector boundary when K (N) is a multiple of kVec.
  unsigned const vec_bytes = kVec * sizeof(Elem);
  bool const a_vec = K % kVec == 0 && kopt_strategy::aligned_to(A, vec_bytes);
  bool const b_vec = (kBTransposed ? K : N) % kVec == 0 && kopt_strategy::aligned_to(B, vec_bytes);
  bool const c_vec = N % kVec == 0 && kopt_strategy::aligned_to(C, vec_bytes);

  float acc[TM][TN];
  multiply_k_range(acc, tiles, A, B, M, N, K, 0, K, row0, col0, a_vec, b_vec,
                   [&](int buf) { multiply_slice(acc, tiles, buf, ty, tx); });

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    int const gm = row0 + (i / 4) * kRowSpan + ty * 4 + (i % 4);
    if (gm >= M) continue;
#pragma unroll
    for (int g = 0; g < kColGroups; ++g) {
      int const gn = col0 + g * kColSpan + tx * 4;
      Elem* dst = C + static_cast<long long>(gm) * N + gn;
      if (c_vec && gn + kVec <= N) {
        kopt_strategy::Pack<Elem, kVec> p;
#pragma unroll
        for (int v = 0; v < kVec; ++v)
          p.v[v] = kopt_strategy::from_float<Elem>(epilogue(acc[i][g * 4 + v], gm, gn + v));
        kopt_strategy::store_pack<Elem, kVec>(dst, p);
      } else {
#pragma unroll
        for (int v = 0; v < kVec; ++v) {
          if (gn + v < N)
            dst[v] = kopt_strategy::from_float<Elem>(epilogue(acc[i][g * 4 + v], gm, gn + v));
        }
      }
    }
  }
}

}  // namespace smem_register_tiled
