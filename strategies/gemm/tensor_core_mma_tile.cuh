// The BF16 tensor-core (mma.sync) tile of C = A * B shared by tensor_core_mma, batched_tensor_core_mma,
// split_k_mma and linear_tensor_core_mma (include lines, docs/strategies.md): knob defaults, the cp.async /
// ldmatrix / mma.sync helpers, the loading and multiplying of one K slice, and the tile kernel. split_k_mma
// defines BK and WARPS (fixed there) before the include. KOPT_GEMM_B_TRANSPOSED, defined before the
// include, takes B as its transpose (N x K row-major, nn.Linear's weight): its slices are copied like A's
// (rows of K) and its fragments loaded with ldmatrix without .trans, which is the mma's column-major B.
// The epilogue is called per element, or, where it has the pair interface of gemm/scale_epilogue.cuh's
// ScaleAddBeta (beta: it reads the old C), per pair, the old C of a fragment row's pairs loaded before any
// of them is stored (store_accumulators_with_prior).

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 32
#endif
#ifndef STAGES
#define STAGES 3
#endif
#ifndef WARPS
#define WARPS 8
#endif

namespace tensor_core_mma {

using Elem = {{T}};
constexpr int kThreads = WARPS * 32;
constexpr int kWarpsN = WARPS / 2;
constexpr int kWarpM = BM / 2;        // rows of C per warp
constexpr int kWarpN = BN / kWarpsN;  // columns of C per warp
constexpr int kFragM = kWarpM / 16;   // m16 fragments per warp
constexpr int kFragN = kWarpN / 8;    // n8 fragments per warp
constexpr int kAStride = BK + 8;      // elements per row of an A slice (padding: conflict-free ldmatrix)
#ifdef KOPT_GEMM_B_TRANSPOSED
constexpr bool kBTransposed = true;
constexpr int kBStride = BK + 8;  // elements per row (an n) of a B slice
constexpr int kBStage = BN * kBStride;
#else
constexpr bool kBTransposed = false;
constexpr int kBStride = BN + 8;  // elements per row (a k) of a B slice
constexpr int kBStage = BK * kBStride;
#endif
constexpr int kAStage = BM * kAStride;
constexpr int kAChunks = BM * BK / 8 / kThreads;  // 16-byte chunks of an A slice per thread
constexpr int kBChunks = BK * BN / 8 / kThreads;

static_assert(sizeof(Elem) == 2, "tensor_core_mma is for BF16 storage");
static_assert(WARPS == 4 || WARPS == 8, "WARPS is 4 or 8");
static_assert(kWarpM % 16 == 0 && kWarpN % 16 == 0, "a warp tile is made of 16 x 16 pieces");
static_assert(BK % 16 == 0, "BK is a multiple of the mma K (16)");
static_assert(kAChunks * kThreads * 8 == BM * BK && kBChunks * kThreads * 8 == BK * BN,
              "slices are copied in 16-byte chunks spread evenly over the threads");
static_assert(STAGES >= 2, "at least double buffering");

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
template <int Pending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
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

// 8 consecutive elements of a row into shared memory, zero past `limit` or when !in_range (any alignment).
__device__ __forceinline__ void copy_chunk_scalar(Elem* dst, Elem const* src, bool in_range, int limit) {
  kopt_strategy::Pack<Elem, 8> p;
#pragma unroll
  for (int v = 0; v < 8; ++v)
    p.v[v] = (in_range && v < limit) ? src[v] : kopt_strategy::from_float<Elem>(0.0f);
  kopt_strategy::store_pack<Elem, 8>(dst, p);
}

// Starts the copy of chunk c (8 elements along K) of a slice of BK columns of a row-major matrix with K
// columns, rows from row0 (A's slice, or B's given as its N x K transpose) into `s` (rows of Stride
// elements); rows at or past `rows` and columns at or past k_end (the end of the block's K range) read as 0.
template <int Stride>
__device__ __forceinline__ void copy_k_chunk(Elem* s, Elem const* __restrict__ matrix, int c, int row0,
                                             int rows, int K, int k0, int k_end, bool vec) {
  int const r = c / (BK / 8);
  int const kc = (c % (BK / 8)) * 8;
  int const g = row0 + r;
  int const gk = k0 + kc;
  Elem* dst = s + r * Stride + kc;
  Elem const* src = matrix + static_cast<long long>(g) * K + gk;
  if (vec) {
    bool const ok = g < rows && gk < k_end;  // K % 8 == 0: the chunk ends by k_end
    cp_async_16(dst, ok ? src : matrix, ok ? 16 : 0);
  } else {
    copy_chunk_scalar(dst, src, g < rows, k_end - gk);
  }
}

// Starts the copy of slice k0 of A (BM x BK) and B (BK x BN, or BN x BK when transposed) into stage buffers
// a_s, b_s; A columns and B rows at or past k_end (the end of the block's K range) read as 0.
__device__ __forceinline__ void load_slice(Elem* a_s, Elem* b_s, Elem const* __restrict__ A,
                                           Elem const* __restrict__ B, int M, int N, int K, int k_end,
                                           int row0, int col0, int k0, bool a_vec, bool b_vec) {
  int const tid = static_cast<int>(threadIdx.x);
#pragma unroll
  for (int i = 0; i < kAChunks; ++i)
    copy_k_chunk<kAStride>(a_s, A, tid + i * kThreads, row0, M, K, k0, k_end, a_vec);
#pragma unroll
  for (int i = 0; i < kBChunks; ++i) {
    int const c = tid + i * kThreads;
    if constexpr (kBTransposed) {  // chunk c of the BN x BK slice of the N x K transpose
      copy_k_chunk<kBStride>(b_s, B, c, col0, N, K, k0, k_end, b_vec);
      continue;
    }
    int const r = c / (BN / 8);
    int const nc = (c % (BN / 8)) * 8;
    int const gk = k0 + r;
    int const gn = col0 + nc;
    Elem* dst = b_s + r * kBStride + nc;
    Elem const* src = B + static_cast<long long>(gk) * N + gn;
    if (b_vec) {
      bool const ok = gk < k_end && gn < N;  // N % 8 == 0: the whole chunk is inside the row
      cp_async_16(dst, ok ? src : B, ok ? 16 : 0);
    } else {
      copy_chunk_scalar(dst, src, gk < k_end, N - gn);
    }
  }
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
      if constexpr (kBTransposed) {
        // Matrix q = lane / 8 of the x4: columns n (16 * nj + 8 * (q / 2)) and k (kk + 8 * (q % 2)).
        ldmatrix_x4(r, b_s + (warp_n0 + nj * 16 + (lane / 16) * 8 + (lane % 8)) * kBStride + kk +
                           ((lane / 8) % 2) * 8);
      } else {
        ldmatrix_x4_trans(r, b_s + (kk + (lane % 16)) * kBStride + warp_n0 + nj * 16 + (lane / 16) * 8);
      }
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

__device__ __forceinline__ void zero_accumulators(float (&acc)[kFragM][kFragN][4]) {
#pragma unroll
  for (int mi = 0; mi < kFragM; ++mi) {
#pragma unroll
    for (int ni = 0; ni < kFragN; ++ni) {
#pragma unroll
      for (int v = 0; v < 4; ++v) acc[mi][ni][v] = 0.0f;
    }
  }
}

// Calls store(gm, gn, v0, v1) for every pair of the warp's accumulators, at row gm and columns gn, gn + 1 of
// C. Layout of m16n8: c0, c1 at (row g, columns 2t, 2t + 1); c2, c3 at row g + 8.
template <typename Store>
__device__ __forceinline__ void for_each_accumulator_pair(float const (&acc)[kFragM][kFragN][4], int row0,
                                                          int col0, int warp_m0, int warp_n0, int lane,
                                                          Store store) {
  int const g = lane / 4;
  int const t = lane % 4;
#pragma unroll
  for (int mi = 0; mi < kFragM; ++mi) {
    int const gm = row0 + warp_m0 + mi * 16 + g;
#pragma unroll
    for (int ni = 0; ni < kFragN; ++ni) {
      int const gn = col0 + warp_n0 + ni * 8 + 2 * t;
      store(gm, gn, acc[mi][ni][0], acc[mi][ni][1]);
      store(gm + 8, gn, acc[mi][ni][2], acc[mi][ni][3]);
    }
  }
}

__device__ __forceinline__ void store_pair(Elem* __restrict__ C, int M, int N, int gm, int gn, float v0,
                                           float v1, bool c_pair) {
  if (gm >= M) return;
  Elem* dst = C + static_cast<long long>(gm) * N + gn;
  if (c_pair && gn + 1 < N) {
    kopt_strategy::Pack<Elem, 2> p;
    p.v[0] = kopt_strategy::from_float<Elem>(v0);
    p.v[1] = kopt_strategy::from_float<Elem>(v1);
    kopt_strategy::store_pack<Elem, 2>(dst, p);
  } else {
    if (gn < N) dst[0] = kopt_strategy::from_float<Elem>(v0);
    if (gn + 1 < N) dst[1] = kopt_strategy::from_float<Elem>(v1);
  }
}

// The value of C at (row, col) from the FP32 product there: as is, or a fused epilogue (linear: + bias, op).
struct NoEpilogue {
  __device__ __forceinline__ float operator()(float v, int /*row*/, int /*col*/) const { return v; }
};

// Whether an epilogue has the pair interface of gemm/scale_epilogue.cuh's ScaleAddBeta (load_pair,
// apply_pair: it reads the old C); the others (NoEpilogue, ScaleBy, linear's lambda) are called per element.
template <typename Epilogue, typename = void>
struct has_pair_epilogue {
  static constexpr bool value = false;
};
template <typename Epilogue>
struct has_pair_epilogue<Epilogue,
                         decltype(void(static_cast<Epilogue const*>(nullptr)->load_pair(0, 0)))> {
  static constexpr bool value = true;
};

// The warp's accumulators through a pair epilogue, one fragment row (16 rows x the warp's columns) at a
// time: the old C of the row's 2 * kFragN pairs is loaded first, all loads in flight together, then each
// pair is combined and stored (a load per pair between stores would be a round trip to memory each).
template <typename Epilogue>
__device__ __forceinline__ void store_accumulators_with_prior(float const (&acc)[kFragM][kFragN][4],
                                                              Elem* __restrict__ C, int M, int N, int row0,
                                                              int col0, int warp_m0, int warp_n0, int lane,
                                                              bool c_pair, Epilogue const& epilogue) {
  int const g = lane / 4;
  int const t = lane % 4;
#pragma unroll
  for (int mi = 0; mi < kFragM; ++mi) {
    int const gm = row0 + warp_m0 + mi * 16 + g;
    typename Epilogue::Prior prior[kFragN][2];
#pragma unroll
    for (int ni = 0; ni < kFragN; ++ni) {
      int const gn = col0 + warp_n0 + ni * 8 + 2 * t;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        if (gm + 8 * h < M && gn < N) prior[ni][h] = epilogue.load_pair(gm + 8 * h, gn);
      }
    }
#pragma unroll
    for (int ni = 0; ni < kFragN; ++ni) {
      int const gn = col0 + warp_n0 + ni * 8 + 2 * t;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        if (gm + 8 * h >= M || gn >= N) continue;
        float v0 = acc[mi][ni][2 * h];
        float v1 = acc[mi][ni][2 * h + 1];
        epilogue.apply_pair(v0, v1, prior[ni][h]);
        store_pair(C, M, N, gm + 8 * h, gn, v0, v1, c_pair);
      }
    }
  }
}

// The BM x BN tile at (blockIdx.y, blockIdx.x) of C = epilogue(A * B); the epilogue is called only for
// elements inside C (an epilogue with the pair interface once per pair, its second column ignored past N).
template <typename Epilogue = NoEpilogue>
__device__ __forceinline__ void gemm_tile(Elem* __restrict__ C, Elem const* __restrict__ A,
                                          Elem const* __restrict__ B, int M, int N, int K,
                                          Epilogue epilogue = {}) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  Elem* const a_smem = reinterpret_cast<Elem*>(smem_raw);
  Elem* const b_smem = a_smem + STAGES * kAStage;

  int const tid = static_cast<int>(threadIdx.x);
  int const lane = tid % 32;
  int const warp = tid / 32;
  int const warp_m0 = (warp / kWarpsN) * kWarpM;
  int const warp_n0 = (warp % kWarpsN) * kWarpN;
  int const row0 = static_cast<int>(blockIdx.y) * BM;
  int const col0 = static_cast<int>(blockIdx.x) * BN;
  // Uniform per block: 16-byte chunks of a row are aligned when the row length is a multiple of 8.
  bool const a_vec = K % 8 == 0 && kopt_strategy::aligned_to(A, 16);
  bool const b_vec = (kBTransposed ? K : N) % 8 == 0 && kopt_strategy::aligned_to(B, 16);
  bool const c_pair = N % 2 == 0 && kopt_strategy::aligned_to(C, 4);

  float acc[kFragM][kFragN][4];
  zero_accumulators(acc);

  int const slices = (K + BK - 1) / BK;
  // Prologue: slices 0 .. STAGES-2 in flight, one commit group each (empty groups keep the count).
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < slices) {
      load_slice(a_smem + s * kAStage, b_smem + s * kBStage, A, B, M, N, K, K, row0, col0, s * BK, a_vec,
                 b_vec);
    }
    cp_async_commit();
  }
  for (int kt = 0; kt < slices; ++kt) {
    // Group kt (slice kt) has landed for this thread; the barrier makes every thread's copies visible and
    // guarantees that every warp is done with slice kt - 1, whose stage is refilled next.
    cp_async_wait<STAGES - 2>();
    __syncthreads();
    int const next = kt + STAGES - 1;
    if (next < slices) {
      int const s = next % STAGES;
      load_slice(a_smem + s * kAStage, b_smem + s * kBStage, A, B, M, N, K, K, row0, col0, next * BK, a_vec,
                 b_vec);
    }
    cp_async_commit();
    int const s = kt % STAGES;
    multiply_slice(acc, a_smem + s * kAStage, b_smem + s * kBStage, warp_m0, warp_n0, lane);
  }
  cp_async_wait<0>();

  if constexpr (has_pair_epilogue<Epilogue>::value) {
    store_accumulators_with_prior(acc, C, M, N, row0, col0, warp_m0, warp_n0, lane, c_pair, epilogue);
  } else {
    for_each_accumulator_pair(acc, row0, col0, warp_m0, warp_n0, lane, [&](int gm, int gn, float v0, float v1) {
      if (gm >= M || gn >= N) return;
      store_pair(C, M, N, gm, gn, epilogue(v0, gm, gn), gn + 1 < N ? epilogue(v1, gm, gn + 1) : 0.0f, c_pair);
    });
  }
}

}  // namespace tensor_core_mma
