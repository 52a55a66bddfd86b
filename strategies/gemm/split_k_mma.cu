// Strategy split_k_mma (family gemm, BF16 only, launcher mode, sm_80+).
// C = A * B, row-major A (M x K), B (K x N), C (M x N) in BF16; FP32 accumulation on the tensor cores,
// one rounding to BF16 at the end. Split-K for skinny products on the tensor cores: K is cut into SPLITS
// slices and kernel 1 runs one block per (tile of C, slice of K) -- grid (tiles of N, tiles of M, SPLITS).
// Each block is the tensor_core_mma kernel restricted to its K range: 4 warps (2 x 2), mma.sync m16n8k16
// on ldmatrix-loaded fragments, a STAGES-deep cp.async ring of BK = 32 slices (zero fill at the edges,
// element-by-element copies when rows are not 16-byte aligned); it writes its FP32 partial tile to a
// workspace[SPLITS][M][N]. Kernel 2 adds the SPLITS partials of every element in slice order
// (deterministic, no atomics) and rounds once. The workspace is a static device buffer allocated once and
// grown only when a larger problem needs it. Any M, N, K (including 0) and any alignment work.
// Knobs: SPLITS (number of K slices), BM, BN (tile of C per block), STAGES (pipeline depth).
//
// kopt:knob SPLITS = [2, 4, 8, 16, 32, 64]
// kopt:knob BM = [64, 128]
// kopt:knob BN = [64, 128]
// kopt:knob STAGES = [2, 3, 4]

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
#ifndef STAGES
#define STAGES 3
#endif

namespace split_k_mma {

constexpr int BK = 32;    // K slice of the pipeline
constexpr int WARPS = 4;  // 2 x 2 warps per block

using Elem = {{T}};
constexpr int kThreads = WARPS * 32;
constexpr int kWarpsN = WARPS / 2;
constexpr int kWarpM = BM / 2;        // rows of C per warp
constexpr int kWarpN = BN / kWarpsN;  // columns of C per warp
constexpr int kFragM = kWarpM / 16;   // m16 fragments per warp
constexpr int kFragN = kWarpN / 8;    // n8 fragments per warp
constexpr int kAStride = BK + 8;      // elements per row of an A slice (padding: conflict-free ldmatrix)
constexpr int kBStride = BN + 8;      // elements per row of a B slice
constexpr int kAStage = BM * kAStride;
constexpr int kBStage = BK * kBStride;
constexpr int kAChunks = BM * BK / 8 / kThreads;  // 16-byte chunks of an A slice per thread
constexpr int kBChunks = BK * BN / 8 / kThreads;

static_assert(sizeof(Elem) == 2, "split_k_mma is for BF16 storage");
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

// Starts the copy of slice k0 of A (BM x BK) and B (BK x BN) into stage buffers a_s, b_s; A columns and B
// rows at or past k_end (the end of this block's K range) read as 0.
__device__ __forceinline__ void load_slice(Elem* a_s, Elem* b_s, Elem const* __restrict__ A,
                                           Elem const* __restrict__ B, int M, int N, int K, int k_end,
                                           int row0, int col0, int k0, bool a_vec, bool b_vec) {
  int const tid = static_cast<int>(threadIdx.x);
#pragma unroll
  for (int i = 0; i < kAChunks; ++i) {
    int const c = tid + i * kThreads;
    int const r = c / (BK / 8);
    int const kc = (c % (BK / 8)) * 8;
    int const gm = row0 + r;
    int const gk = k0 + kc;
    Elem* dst = a_s + r * kAStride + kc;
    Elem const* src = A + static_cast<long long>(gm) * K + gk;
    if (a_vec) {
      bool const ok = gm < M && gk < k_end;  // K % 8 == 0: the chunk ends by k_end
      cp_async_16(dst, ok ? src : A, ok ? 16 : 0);
    } else {
      copy_chunk_scalar(dst, src, gm < M, k_end - gk);
    }
  }
#pragma unroll
  for (int i = 0; i < kBChunks; ++i) {
    int const c = tid + i * kThreads;
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

constexpr int kSmemBytes = STAGES * (kAStage + kBStage) * static_cast<int>(sizeof(Elem));
constexpr int kReduceThreads = 256;

__device__ __forceinline__ void store_pair(float* __restrict__ out, int M, int N, int gm, int gn, float v0,
                                           float v1, bool o_pair) {
  if (gm >= M) return;
  float* dst = out + static_cast<long long>(gm) * N + gn;
  if (o_pair && gn + 1 < N) {
    *reinterpret_cast<float2*>(dst) = make_float2(v0, v1);
  } else {
    if (gn < N) dst[0] = v0;
    if (gn + 1 < N) dst[1] = v1;
  }
}

// Block (x, y, z): the FP32 partial product of tile (y, x) of C over K slice z, into partial[z][M][N].
__global__ void __launch_bounds__(kThreads)
    partial_kernel(float* __restrict__ partial, Elem const* __restrict__ A, Elem const* __restrict__ B, int M,
                   int N, int K) {
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
  // Slice z covers [k_begin, k_end); the slice length is a multiple of BK, so chunks never straddle it.
  int const per_split = kopt_strategy::ceil_div(kopt_strategy::ceil_div(K, SPLITS), BK) * BK;
  int const z = static_cast<int>(blockIdx.z);
  int const k_begin = min(K, z * per_split);
  int const k_end = min(K, k_begin + per_split);
  bool const a_vec = K % 8 == 0 && kopt_strategy::aligned_to(A, 16);
  bool const b_vec = N % 8 == 0 && kopt_strategy::aligned_to(B, 16);

  float acc[kFragM][kFragN][4];
#pragma unroll
  for (int mi = 0; mi < kFragM; ++mi) {
#pragma unroll
    for (int ni = 0; ni < kFragN; ++ni) {
#pragma unroll
      for (int v = 0; v < 4; ++v) acc[mi][ni][v] = 0.0f;
    }
  }

  int const slices = (k_end - k_begin + BK - 1) / BK;
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < slices) {
      load_slice(a_smem + s * kAStage, b_smem + s * kBStage, A, B, M, N, K, k_end, row0, col0,
                 k_begin + s * BK, a_vec, b_vec);
    }
    cp_async_commit();
  }
  for (int kt = 0; kt < slices; ++kt) {
    // Slice kt has landed for this thread; the barrier publishes every thread's copies and guarantees that
    // every warp is done with slice kt - 1, whose stage is refilled next.
    cp_async_wait<STAGES - 2>();
    __syncthreads();
    int const next = kt + STAGES - 1;
    if (next < slices) {
      int const s = next % STAGES;
      load_slice(a_smem + s * kAStage, b_smem + s * kBStage, A, B, M, N, K, k_end, row0, col0,
                 k_begin + next * BK, a_vec, b_vec);
    }
    cp_async_commit();
    int const s = kt % STAGES;
    multiply_slice(acc, a_smem + s * kAStage, b_smem + s * kBStage, warp_m0, warp_n0, lane);
  }
  cp_async_wait<0>();

  // Every element of the partial tile is written (zeros for an empty slice): the sum reads them all.
  float* out = partial + static_cast<long long>(z) * M * N;
  bool const o_pair = N % 2 == 0;  // the workspace comes from cudaMalloc: rows are 8-byte aligned then
  int const g = lane / 4;
  int const t = lane % 4;
#pragma unroll
  for (int mi = 0; mi < kFragM; ++mi) {
    int const gm = row0 + warp_m0 + mi * 16 + g;
#pragma unroll
    for (int ni = 0; ni < kFragN; ++ni) {
      int const gn = col0 + warp_n0 + ni * 8 + 2 * t;
      store_pair(out, M, N, gm, gn, acc[mi][ni][0], acc[mi][ni][1], o_pair);
      store_pair(out, M, N, gm + 8, gn, acc[mi][ni][2], acc[mi][ni][3], o_pair);
    }
  }
}

// C[i] = sum over z in order of partial[z][i], rounded once to BF16. Four elements per thread when aligned.
__global__ void __launch_bounds__(kReduceThreads)
    sum_kernel(Elem* __restrict__ C, float const* __restrict__ partial, long long count) {
  long long const stride = static_cast<long long>(gridDim.x) * blockDim.x;
  long long const first = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  bool const vec = count % 4 == 0 && kopt_strategy::aligned_to(C, 4 * sizeof(Elem));
  if (vec) {
    long long const count4 = count / 4;
    for (long long i = first; i < count4; i += stride) {
      float4 sum = reinterpret_cast<float4 const*>(partial)[i];
#pragma unroll 4
      for (int z = 1; z < SPLITS; ++z) {
        float4 const p = reinterpret_cast<float4 const*>(partial + z * count)[i];
        sum.x += p.x;
        sum.y += p.y;
        sum.z += p.z;
        sum.w += p.w;
      }
      kopt_strategy::Pack<Elem, 4> out;
      out.v[0] = kopt_strategy::from_float<Elem>(sum.x);
      out.v[1] = kopt_strategy::from_float<Elem>(sum.y);
      out.v[2] = kopt_strategy::from_float<Elem>(sum.z);
      out.v[3] = kopt_strategy::from_float<Elem>(sum.w);
      kopt_strategy::store_pack<Elem, 4>(C + 4 * i, out);
    }
  } else {
    for (long long i = first; i < count; i += stride) {
      float sum = partial[i];
#pragma unroll 4
      for (int z = 1; z < SPLITS; ++z) sum += partial[z * count + i];
      C[i] = kopt_strategy::from_float<Elem>(sum);
    }
  }
}

// The workspace: allocated on first use, grown (never shrunk) when a larger problem needs more.
float* workspace(size_t bytes) {
  static float* buffer = nullptr;
  static size_t capacity = 0;
  if (bytes > capacity) {
    if (buffer != nullptr) cudaFree(buffer);  // implicitly waits for the work that still uses it
    buffer = nullptr;
    capacity = 0;
    if (cudaMalloc(&buffer, bytes) != cudaSuccess) {
      buffer = nullptr;
      return nullptr;
    }
    capacity = bytes;
  }
  return buffer;
}

}  // namespace split_k_mma

extern "C" void {{ENTRY}}({{T}}* C, const {{T}}* A, const {{T}}* B, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  static bool const smem_ready =
      cudaFuncSetAttribute(split_k_mma::partial_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           split_k_mma::kSmemBytes) == cudaSuccess;
  if (!smem_ready) return;  // the launch would fail: C stays as it is and verification reports it
  long long const count = static_cast<long long>(M) * N;
  float* partial = split_k_mma::workspace(static_cast<size_t>(count) * SPLITS * sizeof(float));
  if (partial == nullptr) return;  // out of memory: C stays as it is and verification reports it
  dim3 const grid(static_cast<unsigned>(kopt_strategy::ceil_div(N, BN)),
                  static_cast<unsigned>(kopt_strategy::ceil_div(M, BM)), SPLITS);
  split_k_mma::partial_kernel<<<grid, split_k_mma::kThreads, split_k_mma::kSmemBytes>>>(partial, A, B, M, N,
                                                                                        K);
  long long const work = count % 4 == 0 ? count / 4 : count;
  long long blocks = (work + split_k_mma::kReduceThreads - 1) / split_k_mma::kReduceThreads;
  if (blocks > 132 * 16) blocks = 132 * 16;  // grid-stride beyond 16 blocks per SM of an H200
  split_k_mma::sum_kernel<<<static_cast<unsigned>(blocks), split_k_mma::kReduceThreads>>>(C, partial, count);
}
