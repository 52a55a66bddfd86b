// Kernel-mode candidate for examples/sgemm with a tuning space (docs/tuning.md).
// Classic shared-memory tiled SGEMM with register blocking: each block computes a BM x BN tile of C,
// stepping through K in slices of BK. The slice of A is stored transposed (k-major, rows padded by
// PAD floats) and the slice of B as is; every thread then accumulates a TM x TN block of C in
// registers from TM + TN shared-memory values per k. VEC = 4 loads A and B from global memory as
// float4 when K (for A) or N (for B) is a multiple of 4 and the pointers are 16-byte aligned; any other
// case, and every vector that crosses the matrix edge, takes the scalar path, so any M, N, K works.
// PREFETCH = 1 double-buffers shared memory: the next slice is loaded into registers before the
// current one is multiplied and stored into the other buffer after it (one barrier per slice).
// Products are accumulated in FP32 in increasing k, the same order as the reference.
// 664 valid configurations of 1536; with CUDA 13.0 (sm_90) 24 of them spill a few registers (at most
// 68 bytes): slow, not wrong (tests/tuning/sgemm_tunable_test.cpp).
//
// kopt:knob BM = [32, 64, 128, 256]
// kopt:knob BN = [32, 64, 128, 256]
// kopt:knob BK = [8, 16, 32]
// kopt:knob TM = [4, 8]
// kopt:knob TN = [4, 8]
// kopt:knob VEC = [1, 4]
// kopt:knob PAD = [0, 4]
// kopt:knob PREFETCH = [0, 1]
// Threads per block between 64 and 1024:
// kopt:constraint (BM / TM) * (BN / TN) >= 64 && (BM / TM) * (BN / TN) <= 1024
// Every thread loads the same number of VEC-wide vectors of each tile:
// kopt:constraint (BM * BK) % ((BM / TM) * (BN / TN) * VEC) == 0
// kopt:constraint (BK * BN) % ((BM / TM) * (BN / TN) * VEC) == 0
// A thread of a 1024-thread block has 64 registers: only 4 x 4 micro-tiles fit without spilling.
// kopt:constraint (BM / TM) * (BN / TN) <= 512 || TM * TN <= 16
// A thread loads at most 32 floats of each slice (the loads are unrolled and in flight together; with
// PREFETCH they are also held in registers during the multiply):
// kopt:constraint (BM + BN) * BK <= 32 * (BM / TM) * (BN / TN)
// Static shared memory at most 48 KiB:
// kopt:constraint 4 * (PREFETCH + 1) * BK * (BM + PAD + BN) <= 49152
// kopt:launch grid=(ceil_div(N, BN), ceil_div(M, BM)) block=((BM / TM) * (BN / TN))

// Defaults, so that the file also compiles on its own (and Kernel Tuner can inject its own #defines).
#ifndef BM
#define BM 128
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
#ifndef VEC
#define VEC 4
#endif
#ifndef PAD
#define PAD 4
#endif
#ifndef PREFETCH
#define PREFETCH 1
#endif

namespace sgemm_tunable {

constexpr int kThreads = (BM / TM) * (BN / TN);
constexpr int kBuffers = PREFETCH ? 2 : 1;
constexpr int kAStride = BM + PAD;                     // floats per k-row of the transposed A tile
constexpr int kAVectors = BM * BK / (kThreads * VEC);  // VEC-wide loads of A per thread per slice
constexpr int kBVectors = BK * BN / (kThreads * VEC);  // and of B

static_assert(BM % TM == 0 && BN % TN == 0, "the micro-tile must divide the block tile");
static_assert(TM % 4 == 0 && TN % 4 == 0 && kAStride % 4 == 0 && BN % 4 == 0,
              "fragments are read from shared memory as aligned float4");
static_assert(kThreads >= 32 && kThreads <= 1024, "threads per block out of range");
static_assert(VEC == 1 || VEC == 4, "VEC is 1 or 4");
static_assert(kAVectors * kThreads * VEC == BM * BK, "A tile loads must divide evenly among threads");
static_assert(kBVectors * kThreads * VEC == BK * BN, "B tile loads must divide evenly among threads");

struct Tiles {
  float a[kBuffers][BK][kAStride];  // a[buf][k][m] = A[row0 + m][k0 + k]
  float b[kBuffers][BK][BN];        // b[buf][k][n] = B[k0 + k][col0 + n]
};

// One slice of A and B in registers, between its global load and its shared-memory store (PREFETCH).
struct Staged {
  float a[kAVectors][VEC];
  float b[kBVectors][VEC];
};

// Loads vector i (of kAVectors) of this thread's share of the A slice at k0: VEC consecutive k of one row.
__device__ __forceinline__ void load_a(float (&out)[VEC], const float* __restrict__ A, int M, int K, int row0,
                                       int k0, int i, bool a_vec) {
  int const e = static_cast<int>(threadIdx.x) + i * kThreads;  // vector e of the BM x (BK / VEC) slice
  int const gm = row0 + e / (BK / VEC);
  int const gk = k0 + (e % (BK / VEC)) * VEC;
  const float* src = A + static_cast<long long>(gm) * K + gk;
  if (VEC == 4 && a_vec && gm < M && gk + VEC <= K) {
    float4 const v = *reinterpret_cast<const float4*>(src);
    out[0] = v.x;
    out[1 % VEC] = v.y;
    out[2 % VEC] = v.z;
    out[3 % VEC] = v.w;
  } else {
#pragma unroll
    for (int v = 0; v < VEC; ++v) out[v] = (gm < M && gk + v < K) ? src[v] : 0.0f;
  }
}

// Loads vector i (of kBVectors) of this thread's share of the B slice at k0: VEC consecutive n of one row.
__device__ __forceinline__ void load_b(float (&out)[VEC], const float* __restrict__ B, int N, int K, int col0,
                                       int k0, int i, bool b_vec) {
  int const e = static_cast<int>(threadIdx.x) + i * kThreads;  // vector e of the BK x (BN / VEC) slice
  int const gk = k0 + e / (BN / VEC);
  int const gn = col0 + (e % (BN / VEC)) * VEC;
  const float* src = B + static_cast<long long>(gk) * N + gn;
  if (VEC == 4 && b_vec && gk < K && gn + VEC <= N) {
    float4 const v = *reinterpret_cast<const float4*>(src);
    out[0] = v.x;
    out[1 % VEC] = v.y;
    out[2 % VEC] = v.z;
    out[3 % VEC] = v.w;
  } else {
#pragma unroll
    for (int v = 0; v < VEC; ++v) out[v] = (gk < K && gn + v < N) ? src[v] : 0.0f;
  }
}

__device__ __forceinline__ void store_a(Tiles& t, int buf, int i, float const (&in)[VEC]) {
  int const e = static_cast<int>(threadIdx.x) + i * kThreads;
  int const m = e / (BK / VEC);
  int const k = (e % (BK / VEC)) * VEC;
#pragma unroll
  for (int v = 0; v < VEC; ++v) t.a[buf][k + v][m] = in[v];
}

__device__ __forceinline__ void store_b(Tiles& t, int buf, int i, float const (&in)[VEC]) {
  int const e = static_cast<int>(threadIdx.x) + i * kThreads;
  int const k = e / (BN / VEC);
  int const n = (e % (BN / VEC)) * VEC;
  if (VEC == 4) {
    *reinterpret_cast<float4*>(&t.b[buf][k][n]) = make_float4(in[0], in[1 % VEC], in[2 % VEC], in[3 % VEC]);
  } else {
    t.b[buf][k][n] = in[0];
  }
}

// Global memory to shared memory through a few registers at a time (PREFETCH = 0).
__device__ __forceinline__ void copy_slice(Tiles& t, int buf, const float* __restrict__ A,
                                           const float* __restrict__ B, int M, int N, int K, int row0,
                                           int col0, int k0, bool a_vec, bool b_vec) {
  float v[VEC];
#pragma unroll
  for (int i = 0; i < kAVectors; ++i) {
    load_a(v, A, M, K, row0, k0, i, a_vec);
    store_a(t, buf, i, v);
  }
#pragma unroll
  for (int i = 0; i < kBVectors; ++i) {
    load_b(v, B, N, K, col0, k0, i, b_vec);
    store_b(t, buf, i, v);
  }
}

// Global memory to registers (PREFETCH = 1): the loads are in flight while the current slice is used.
__device__ __forceinline__ void load_slice(Staged& s, const float* __restrict__ A,
                                           const float* __restrict__ B, int M, int N, int K, int row0,
                                           int col0, int k0, bool a_vec, bool b_vec) {
#pragma unroll
  for (int i = 0; i < kAVectors; ++i) load_a(s.a[i], A, M, K, row0, k0, i, a_vec);
#pragma unroll
  for (int i = 0; i < kBVectors; ++i) load_b(s.b[i], B, N, K, col0, k0, i, b_vec);
}

__device__ __forceinline__ void store_slice(Tiles& t, int buf, Staged const& s) {
#pragma unroll
  for (int i = 0; i < kAVectors; ++i) store_a(t, buf, i, s.a[i]);
#pragma unroll
  for (int i = 0; i < kBVectors; ++i) store_b(t, buf, i, s.b[i]);
}

// Reads COUNT consecutive floats from shared memory, as float4 when COUNT is a multiple of 4 (the
// caller guarantees 16-byte alignment then).
template <int Count>
__device__ __forceinline__ void read_fragment(float (&out)[Count], const float* src) {
  if (Count % 4 == 0) {
#pragma unroll
    for (int i = 0; i < Count; i += 4) {
      float4 const v = *reinterpret_cast<const float4*>(src + i);
      out[i] = v.x;
      out[(i + 1) % Count] = v.y;
      out[(i + 2) % Count] = v.z;
      out[(i + 3) % Count] = v.w;
    }
  } else {
#pragma unroll
    for (int i = 0; i < Count; ++i) out[i] = src[i];
  }
}

__device__ __forceinline__ void multiply_slice(float (&acc)[TM][TN], Tiles const& t, int buf, int thread_row,
                                               int thread_col) {
  float a_frag[TM];
  float b_frag[TN];
#pragma unroll
  for (int k = 0; k < BK; ++k) {
    read_fragment<TM>(a_frag, &t.a[buf][k][thread_row]);
    read_fragment<TN>(b_frag, &t.b[buf][k][thread_col]);
#pragma unroll
    for (int i = 0; i < TM; ++i) {
#pragma unroll
      for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
    }
  }
}

}  // namespace sgemm_tunable

extern "C" __global__ void __launch_bounds__((BM / TM) * (BN / TN))
                                                  sgemm(float* __restrict__ C, const float* __restrict__ A,
                                                        const float* __restrict__ B, int M, int N, int K) {
  using namespace sgemm_tunable;
  __shared__ __align__(16) Tiles tiles;

  int const tid = static_cast<int>(threadIdx.x);
  int const row0 = static_cast<int>(blockIdx.y) * BM;
  int const col0 = static_cast<int>(blockIdx.x) * BN;
  int const thread_row = (tid / (BN / TN)) * TM;
  int const thread_col = (tid % (BN / TN)) * TN;
  // Uniform per launch: rows of A (of B, C) start 16-byte aligned when K (N) is a multiple of 4.
  bool const a_vec = K % 4 == 0 && (reinterpret_cast<unsigned long long>(A) & 15ull) == 0;
  bool const b_vec = N % 4 == 0 && (reinterpret_cast<unsigned long long>(B) & 15ull) == 0;
  bool const c_vec = N % 4 == 0 && (reinterpret_cast<unsigned long long>(C) & 15ull) == 0;

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i) {
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;
  }

  if (PREFETCH) {
    Staged staged;
    if (K > 0) {
      load_slice(staged, A, B, M, N, K, row0, col0, 0, a_vec, b_vec);
      store_slice(tiles, 0, staged);
      __syncthreads();
    }
    int buf = 0;
    for (int k0 = 0; k0 < K; k0 += BK) {
      bool const has_next = k0 + BK < K;
      if (has_next) load_slice(staged, A, B, M, N, K, row0, col0, k0 + BK, a_vec, b_vec);
      multiply_slice(acc, tiles, buf, thread_row, thread_col);
      if (has_next) store_slice(tiles, (buf + 1) % kBuffers, staged);
      __syncthreads();
      buf = (buf + 1) % kBuffers;
    }
  } else {
    for (int k0 = 0; k0 < K; k0 += BK) {
      copy_slice(tiles, 0, A, B, M, N, K, row0, col0, k0, a_vec, b_vec);
      __syncthreads();
      multiply_slice(acc, tiles, 0, thread_row, thread_col);
      __syncthreads();
    }
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    int const gm = row0 + thread_row + i;
    if (gm >= M) break;
    float* dst = C + static_cast<long long>(gm) * N + col0 + thread_col;
#pragma unroll
    for (int j = 0; j < TN; j += (TN % 4 == 0 && VEC == 4) ? 4 : 1) {
      int const gn = col0 + thread_col + j;
      if (TN % 4 == 0 && VEC == 4 && c_vec && gn + 4 <= N) {
        *reinterpret_cast<float4*>(dst + j) =
            make_float4(acc[i][j], acc[i][(j + 1) % TN], acc[i][(j + 2) % TN], acc[i][(j + 3) % TN]);
      } else {
#pragma unroll
        for (int v = 0; v < ((TN % 4 == 0 && VEC == 4) ? 4 : 1); ++v) {
          if (gn + v < N) dst[j + v] = acc[i][(j + v) % TN];
        }
      }
    }
  }
}
