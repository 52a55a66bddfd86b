// Strategy hopper_wgmma_tma (family gemm, BF16 only, launcher mode, sm_90a), and with KOPT_BATCHED = 1
// batched_hopper_wgmma_tma(_scaled, _beta) (family batched_gemm).
// C = A * B, row-major A (M x K), B (K x N), C (M x N) in BF16; FP32 accumulation on Hopper's tensor cores
// through wgmma, one rounding to BF16 at the end.
//
// Algorithm: a persistent, warp-specialised kernel. Each block owns a sequence of output tiles of
// (64 * CONSUMERS) x TILE_N (tile t, t + gridDim.x, ...; tiles ordered in groups of GROUP_M tile rows so
// that neighbouring blocks share A and B panels in L2). Warpgroup 0 is the producer: one thread issues TMA
// loads (cp.async.bulk.tensor.2d, tensor maps encoded on the host per call with cuTensorMapEncodeTiled,
// 128-byte swizzle) of 64-wide K slices of A (K-major) and B (N-major, 64-column boxes) into a DEPTH-deep
// ring of shared-memory stages; a "full" mbarrier per stage counts the bytes in (expect_tx/complete_tx)
// and an "empty" mbarrier per stage collects one arrive per consumer warp when the stage has been read.
// Warpgroups 1..CONSUMERS are consumers: each multiplies its 64 rows of the tile by the whole TILE_N
// columns with wgmma.mma_async m64nTILE_Nk16 (both operands from shared memory through matrix
// descriptors, B with the transpose bit since it is N-major), keeps one K slice of wgmma in flight
// (wait_group 1) and frees the previous stage, then writes its FP32 accumulators to C as BF16 pairs
// (rows and columns guarded). TMA zero-fills everything outside the matrices, so partial tiles at every
// edge are exact; the producer runs ahead into the next tile while the consumers store.
// Shapes TMA cannot address (K or N not a multiple of 8, i.e. rows not 16-byte aligned; A or B not
// 16-byte aligned; K == 0), a GPU that is not sm_90, or a failure to encode the tensor maps use the
// mma.sync tile of tensor_core_mma (included below) instead, so any M, N, K works. Compiled for anything
// but sm_90a, the wgmma kernel's body is a plain FP32 loop (correct, slow): kopt compiles this strategy
// for sm_90a only.
// Batched (KOPT_BATCHED = 1, a manifest `defines`): C[b] = A[b] * B[b] for b < batch, matrices packed
// contiguously (A[b] at b*M*K, B[b] at b*K*N, C[b] at b*M*N). The tensor maps are 3-D (A: K, M, batch;
// B: N, K, batch; the batch strides M*K*2 and K*N*2 bytes are multiples of 16 since K and N are multiples of
// 8), so a box that crosses the last row or column of a matrix is zero-filled by TMA instead of reading the
// next matrix. The persistent scheduler walks batch x tiles_m x tiles_n (tile t is tile t % (tiles_m *
// tiles_n) of matrix t / (tiles_m * tiles_n), GROUP_M order inside each matrix), so the blocks in flight
// work on a few consecutive matrices whose panels stay in L2. KOPT_ALPHA and KOPT_BETA (gemm/
// scale_epilogue.cuh) add the caller's alpha, C[b] = alpha A[b] B[b], and beta, + beta * C[b] (C read in
// place, not at all where beta == 0): a consumer thread loads the old C of its pairs of a tile (32-bit
// loads) before the tile's K loop, so their latency hides behind the wgmmas. The fallback is the batched
// mma.sync tile (tensor_core_mma::gemm_tile with blockIdx.z as the matrix, launched in slices of 65535
// matrices), so any batch, M, N, K works. For 512^3 matrices (8 K slices per tile, 512 to 2048 tiles per
// 64 matrices) a 128 x 128 tile (TILE_N 128) or one consumer (64-row tiles; with TILE_N <= 128 the batched
// kernel is held to 128 registers, so two blocks share an SM where two rings fit) may beat the 128 x 256
// default: more tiles balance the waves and a second block hides one block's epilogue behind the other's
// main loop.
// Knobs: TILE_N (tile columns, the wgmma N), CONSUMERS (consumer warpgroups: tile rows 64 or 128),
// DEPTH (pipeline stages), GROUP_M (tile rows per group of the L2-friendly tile order).
//
// kopt:knob TILE_N = [64, 128, 256]
// kopt:knob CONSUMERS = [1, 2]
// kopt:knob DEPTH = [3, 4, 5, 6]
// kopt:knob GROUP_M = [1, 8, 16]
// The stages plus barriers and alignment slack fit in 227 KiB of dynamic shared memory (H100/H200):
// kopt:constraint DEPTH * (CONSUMERS * 8192 + TILE_N * 128) + 2048 <= 232448
// kopt:include tensor_core_mma_tile.cuh
// kopt:include scale_epilogue.cuh

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#ifndef TILE_N
#define TILE_N 256
#endif
#ifndef CONSUMERS
#define CONSUMERS 2
#endif
#ifndef DEPTH
#define DEPTH 4
#endif
#ifndef GROUP_M
#define GROUP_M 8
#endif
#ifndef KOPT_BATCHED
#define KOPT_BATCHED 0
#endif

namespace hopper_wgmma {

using Elem = {{T}};
constexpr int kBlockM = 64 * CONSUMERS;  // tile rows: 64 per consumer warpgroup
constexpr int kBlockN = TILE_N;          // tile columns = the wgmma N
constexpr int kBlockK = 64;              // K slice: 64 BF16 = 128 bytes, one 128-byte swizzle row
constexpr int kThreads = 128 * (CONSUMERS + 1);
constexpr int kAccum = kBlockN / 2;  // FP32 accumulators per consumer thread (64 x TILE_N per warpgroup)
constexpr int kABytes = kBlockM * kBlockK * 2;  // one stage of A: kBlockM rows of 128 bytes
constexpr int kBBoxBytes = kBlockK * 64 * 2;    // one 64 x 64 box of B: 64 K rows of 128 bytes (8 KiB)
constexpr int kBBytes = (kBlockN / 64) * kBBoxBytes;
constexpr int kStageBytes = kABytes + kBBytes;
// Stages (1024-byte aligned: the 128-byte swizzle repeats every 8 rows of 128 bytes), then 2 * DEPTH
// mbarriers of 8 bytes; 1024 bytes of slack for aligning the dynamic shared memory base.
constexpr int kSmemBytes = DEPTH * kStageBytes + 2 * DEPTH * 8 + 1024;

static_assert(sizeof(Elem) == 2, "hopper_wgmma_tma is for BF16 storage");
static_assert(TILE_N == 64 || TILE_N == 128 || TILE_N == 256, "TILE_N is a wgmma N of 64, 128 or 256");
static_assert(CONSUMERS == 1 || CONSUMERS == 2, "one or two consumer warpgroups");
static_assert(DEPTH >= 2, "at least two stages");
static_assert(GROUP_M >= 1, "GROUP_M is at least 1");
static_assert(kAccum * 2 == kBlockN, "a warpgroup's 64 x kBlockN FP32 accumulators over 128 threads");
static_assert(kABytes % 1024 == 0 && kBBoxBytes % 1024 == 0, "stages keep 1024-byte alignment");

// ---- Shared-memory addresses, mbarriers, TMA (PTX ISA 8.0, sm_90) ----

__device__ __forceinline__ unsigned smem_u32(void const* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

// Makes the initialised barriers visible to the other threads and to the async proxy (TMA).
__device__ __forceinline__ void mbar_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// Arrives once and adds `bytes` to the transaction count the current phase waits for.
__device__ __forceinline__ void mbar_arrive_expect_tx(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

// Waits until the phase with parity `parity` of the barrier has completed.
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (done == 0);
}

__device__ __forceinline__ void tma_prefetch_map(CUtensorMap const* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<unsigned long long>(map)) : "memory");
}

// The box of `map` at (inner coordinate c0, outer coordinate c1) into shared memory at dst; completion
// (its bytes) is signalled on the mbarrier `bar`. Out-of-bounds elements are written as zeros.
__device__ __forceinline__ void tma_load_2d(unsigned dst, CUtensorMap const* map, int c0, int c1,
                                            unsigned bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
      "[%4];\n" ::"r"(dst),
      "l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}

#if KOPT_BATCHED
// The box of the 3-D `map` at (c0, c1, matrix c2), as tma_load_2d; zeros outside matrix c2.
__device__ __forceinline__ void tma_load_3d(unsigned dst, CUtensorMap const* map, int c0, int c1, int c2,
                                            unsigned bar) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], "
      "[%5];\n" ::"r"(dst),
      "l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(bar)
      : "memory");
}
#endif

// ---- wgmma ----

// Matrix descriptor of a 128-byte-swizzled operand in shared memory: start address, leading and stride
// byte offsets (all >> 4, 14 bits each at bits 0, 16, 32), swizzle mode 1 (128 bytes) at bits 62-63; base
// offset (bits 49-51) 0 because every swizzle atom starts on a 1024-byte boundary.
__device__ __forceinline__ unsigned long long make_desc(unsigned addr, unsigned lbo, unsigned sbo) {
  return static_cast<unsigned long long>((addr & 0x3FFFFu) >> 4) |
         (static_cast<unsigned long long>((lbo & 0x3FFFFu) >> 4) << 16) |
         (static_cast<unsigned long long>((sbo & 0x3FFFFu) >> 4) << 32) | (1ull << 62);
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int Pending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(Pending) : "memory");
}

// Pins the accumulators in order with the surrounding volatile asm: register writes (zeroing) happen
// before wgmma.fence, and reads (the epilogue) after wgmma.wait_group.
template <int N>
__device__ __forceinline__ void fence_accumulators(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

template <int N>
__device__ __forceinline__ void wgmma_tile(float (&d)[N / 2], unsigned long long desc_a,
                                           unsigned long long desc_b, int scale_d);

// Operand lists of the wgmma specialisations below: the accumulators d[i] .. d[i + 31] (read and written)
// and the register numbers %0 .. %63 they are bound to in the instruction text.
#define WGMMA_ACC8(i)                                                                                \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]),        \
      "+f"(d[i + 6]), "+f"(d[i + 7])
#define WGMMA_ACC32(i) WGMMA_ACC8(i), WGMMA_ACC8(i + 8), WGMMA_ACC8(i + 16), WGMMA_ACC8(i + 24)
#define WGMMA_REGS_0_31                                                                              \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                           \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define WGMMA_REGS_32_63                                                                             \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "                 \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"

// d (64 x 64, 32 floats per thread) += A (64 x 16, K-major) * B (16 x 64, N-major), both from shared memory.
template <>
__device__ __forceinline__ void wgmma_tile<64>(float (&d)[32], unsigned long long desc_a,
                                                unsigned long long desc_b, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {"
      WGMMA_REGS_0_31
      "}, %32, %33, p, 1, 1, 0, 1;\n}\n"
      : WGMMA_ACC32(0)
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}

// d (64 x 128, 64 floats per thread) += A (64 x 16, K-major) * B (16 x 128, N-major), both from shared memory.
template <>
__device__ __forceinline__ void wgmma_tile<128>(float (&d)[64], unsigned long long desc_a,
                                                unsigned long long desc_b, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {"
      WGMMA_REGS_0_31 ", "
      WGMMA_REGS_32_63
      "}, %64, %65, p, 1, 1, 0, 1;\n}\n"
      : WGMMA_ACC32(0), WGMMA_ACC32(32)
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}

// d (64 x 256, 128 floats per thread) += A (64 x 16, K-major) * B (16 x 256, N-major), both from shared memory.
template <>
__device__ __forceinline__ void wgmma_tile<256>(float (&d)[128], unsigned long long desc_a,
                                                unsigned long long desc_b, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
      WGMMA_REGS_0_31 ", "
      WGMMA_REGS_32_63 ", "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
      "}, %128, %129, p, 1, 1, 0, 1;\n}\n"
      : WGMMA_ACC32(0), WGMMA_ACC32(32), WGMMA_ACC32(64), WGMMA_ACC32(96)
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}

#undef WGMMA_ACC8
#undef WGMMA_ACC32
#undef WGMMA_REGS_0_31
#undef WGMMA_REGS_32_63

// Tile t of the grid of tiles_m x tiles_n tiles, in groups of GROUP_M tile rows walked column by column
// (consecutive tiles share the B panel of a column and the A panels of the group: L2 reuse).
__device__ __forceinline__ void tile_coords(int t, int tiles_m, int tiles_n, int& tm, int& tn) {
  int const group_tiles = GROUP_M * tiles_n;
  int const group = t / group_tiles;
  int const first_m = group * GROUP_M;
  int const rows = min(tiles_m - first_m, GROUP_M);
  int const in_group = t - group * group_tiles;
  tm = first_m + in_group % rows;
  tn = in_group / rows;
}

__device__ __forceinline__ void store_pair(Elem* __restrict__ C, int M, int N, int row, int col, float v0,
                                           float v1, bool c_pair) {
  if (row >= M || col >= N) return;
  Elem* dst = C + static_cast<long long>(row) * N + col;
  if (c_pair && col + 1 < N) {
    kopt_strategy::Pack<Elem, 2> p;
    p.v[0] = kopt_strategy::from_float<Elem>(v0);
    p.v[1] = kopt_strategy::from_float<Elem>(v1);
    kopt_strategy::store_pack<Elem, 2>(dst, p);
  } else {
    dst[0] = kopt_strategy::from_float<Elem>(v0);
    if (col + 1 < N) dst[1] = kopt_strategy::from_float<Elem>(v1);
  }
}

#if KOPT_BATCHED
// The batched strategies' epilogue on the FP32 products: as is, times alpha, or alpha times plus beta times
// the old C (gemm/scale_epilogue.cuh); C is this matrix's.
#if KOPT_BETA
using Epilogue = ScaleAddBeta<Elem>;
__device__ __forceinline__ Epilogue make_epilogue(Elem const* C, int N, float alpha, float beta) {
  return Epilogue{alpha, beta, C, N};
}
#elif KOPT_ALPHA
using Epilogue = ScaleBy;
__device__ __forceinline__ Epilogue make_epilogue(Elem const*, int, float alpha, float) { return Epilogue{alpha}; }
#else
using Epilogue = tensor_core_mma::NoEpilogue;
__device__ __forceinline__ Epilogue make_epilogue(Elem const*, int, float, float) { return Epilogue{}; }
#endif

// The old C a consumer thread's pairs of one tile combine with: beta's, loaded at the start of the tile so
// that the loads complete behind its K loop (C is written through another pointer, so the compiler could
// not move them above the stores of an epilogue that loaded them itself: one round trip to memory per
// pair or per run of pairs, as long as a tile's main loop for short K); nothing without beta.
#if KOPT_BETA
using Prior = Epilogue::Prior;
#else
struct Prior {};
#endif

// A consumer thread's pairs of one tile: rows row and row + 8, columns col0 + 8j + {0, 1} for j < kBlockN / 8
// (the wgmma accumulator layout in the kernel). Pairs outside C are not read; the others are 4-byte aligned
// (even columns, N % 8 == 0 and a 4-byte aligned C: the launcher's condition for this kernel with beta), one
// 32-bit register each.
__device__ __forceinline__ void load_prior(Prior (&prior)[kBlockN / 8][2], int M, int N, int row, int col0,
                                           Epilogue const& epilogue) {
#if KOPT_BETA
#pragma unroll
  for (int j = 0; j < kBlockN / 8; ++j) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      if (row + 8 * h < M && col0 + 8 * j < N) prior[j][h] = epilogue.load_aligned_pair(row + 8 * h, col0 + 8 * j);
    }
  }
#else
  (void)prior;
  (void)M;
  (void)N;
  (void)row;
  (void)col0;
  (void)epilogue;
#endif
}

// Those pairs through the epilogue into C (this matrix's), BF16 pairs where aligned.
__device__ __forceinline__ void store_tile(float const (&acc)[kAccum], Prior const (&prior)[kBlockN / 8][2],
                                           Elem* __restrict__ C, int M, int N, int row, int col0, bool c_pair,
                                           Epilogue const& epilogue) {
#pragma unroll
  for (int j = 0; j < kBlockN / 8; ++j) {
    int const col = col0 + 8 * j;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      int const r = row + 8 * h;
#if KOPT_BETA
      if (r >= M || col >= N) continue;
      float v0 = acc[4 * j + 2 * h];
      float v1 = acc[4 * j + 2 * h + 1];
      epilogue.apply_pair(v0, v1, prior[j][h]);
      store_pair(C, M, N, r, col, v0, v1, c_pair);
#else
      (void)prior;
      store_pair(C, M, N, r, col, epilogue(acc[4 * j + 2 * h], r, col),
                 epilogue(acc[4 * j + 2 * h + 1], r, col + 1), c_pair);
#endif
    }
  }
}
#endif

// Requires K % 8 == 0, N % 8 == 0 (16-byte rows for TMA), K > 0, M, N > 0 (batched: batch > 0, batch *
// tiles_m * tiles_n within int). A and B are only read by the non-sm_90a body; the sm_90a body reads them
// through the tensor maps.
#if KOPT_BATCHED
// One consumer with TILE_N <= 128 is held to 128 registers a thread (60 to 128 used), so that two blocks
// share an SM where their stages fit (TILE_N 128 with DEPTH <= 4, TILE_N 64 with any DEPTH): one block's
// epilogue runs behind the other's wgmmas.
constexpr int kMinBlocksPerSm = (CONSUMERS == 1 && TILE_N <= 128) ? 2 : 1;
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
    gemm_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                Elem* __restrict__ C, Elem const* __restrict__ A, Elem const* __restrict__ B, int batch, int M,
                int N, int K, bool c_pair, float alpha, float beta) {
  int const tiles_m = kopt_strategy::ceil_div(M, kBlockM);
  int const tiles_n = kopt_strategy::ceil_div(N, kBlockN);
  int const matrix_tiles = tiles_m * tiles_n;  // tiles of one matrix
  int const num_tiles = batch * matrix_tiles;
#else
__global__ void __launch_bounds__(kThreads, 1)
    gemm_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                Elem* __restrict__ C, Elem const* __restrict__ A, Elem const* __restrict__ B, int M, int N,
                int K, bool c_pair) {
  int const tiles_m = kopt_strategy::ceil_div(M, kBlockM);
  int const tiles_n = kopt_strategy::ceil_div(N, kBlockN);
  int const num_tiles = tiles_m * tiles_n;
#endif
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char smem_raw[];
  unsigned const base = (smem_u32(smem_raw) + 1023u) & ~1023u;
  unsigned const a_smem = base;                            // DEPTH stages of A
  unsigned const b_smem = base + DEPTH * kABytes;          // DEPTH stages of B
  unsigned const full_bar = b_smem + DEPTH * kBBytes;      // DEPTH barriers: stage loaded
  unsigned const empty_bar = full_bar + DEPTH * 8;         // DEPTH barriers: stage consumed
  int const k_tiles = kopt_strategy::ceil_div(K, kBlockK);
  int const warpgroup = static_cast<int>(threadIdx.x) / 128;

  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < DEPTH; ++s) {
      mbar_init(full_bar + 8 * s, 1);                  // the producer's arrive.expect_tx (+ the TMA bytes)
      mbar_init(empty_bar + 8 * s, 4 * CONSUMERS);     // one arrive per consumer warp
    }
    mbar_init_fence();
  }
  __syncthreads();  // the last block-wide barrier: the warpgroups go their own ways from here

  if (warpgroup == 0) {
    // Producer warpgroup: with two consumers it gives registers to them (384 threads start at 168
    // registers each: 128 x 40 + 256 x 232 fits the same 64512); one thread issues every load.
    if constexpr (CONSUMERS == 2) asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
    if (threadIdx.x == 0) {
      tma_prefetch_map(&map_a);
      tma_prefetch_map(&map_b);
      int it = 0;  // K slices issued by this block so far (over all its tiles): stage it % DEPTH
      for (int t = static_cast<int>(blockIdx.x); t < num_tiles; t += static_cast<int>(gridDim.x)) {
        int tm = 0;
        int tn = 0;
#if KOPT_BATCHED
        int const b = t / matrix_tiles;  // the matrix
        tile_coords(t - b * matrix_tiles, tiles_m, tiles_n, tm, tn);
#else
        tile_coords(t, tiles_m, tiles_n, tm, tn);
#endif
        // B boxes that lie wholly right of column N are not loaded (their stale columns only reach
        // accumulators of columns >= N, which are never stored); partial boxes are zero-filled by TMA.
        int const b_boxes = min(kBlockN / 64, kopt_strategy::ceil_div(N - tn * kBlockN, 64));
        unsigned const stage_bytes = static_cast<unsigned>(kABytes + b_boxes * kBBoxBytes);
        for (int kt = 0; kt < k_tiles; ++kt, ++it) {
          int const s = it % DEPTH;
          unsigned const phase = static_cast<unsigned>(it / DEPTH) & 1u;
          // Round r = it / DEPTH of stage s needs round r - 1 consumed (round 0 passes: parity 1 of a
          // fresh barrier counts as the completed phase before phase 0).
          mbar_wait(empty_bar + 8 * s, phase ^ 1u);
          unsigned const full = full_bar + 8 * s;
          mbar_arrive_expect_tx(full, stage_bytes);
#if KOPT_BATCHED
          tma_load_3d(a_smem + s * kABytes, &map_a, kt * kBlockK, tm * kBlockM, b, full);
#pragma unroll
          for (int j = 0; j < kBlockN / 64; ++j) {
            if (j < b_boxes)
              tma_load_3d(b_smem + s * kBBytes + j * kBBoxBytes, &map_b, tn * kBlockN + j * 64, kt * kBlockK, b,
                          full);
          }
#else
          tma_load_2d(a_smem + s * kABytes, &map_a, kt * kBlockK, tm * kBlockM, full);
#pragma unroll
          for (int j = 0; j < kBlockN / 64; ++j) {
            if (j < b_boxes)
              tma_load_2d(b_smem + s * kBBytes + j * kBBoxBytes, &map_b, tn * kBlockN + j * 64, kt * kBlockK,
                        full);
          }
#endif
        }
      }
    }
  } else {
    // Consumer warpgroup c: rows c * 64 .. c * 64 + 63 of each tile, all kBlockN columns.
    if constexpr (CONSUMERS == 2) asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");
    int const c = warpgroup - 1;
    int const warp = (static_cast<int>(threadIdx.x) / 32) % 4;
    int const lane = static_cast<int>(threadIdx.x) % 32;
    float acc[kAccum];
    int it = 0;
    for (int t = static_cast<int>(blockIdx.x); t < num_tiles; t += static_cast<int>(gridDim.x)) {
      int tm = 0;
      int tn = 0;
#if KOPT_BATCHED
      int const b = t / matrix_tiles;  // the matrix
      tile_coords(t - b * matrix_tiles, tiles_m, tiles_n, tm, tn);
      // The thread's first row and column of the tile (the accumulator layout below); beta's old C is
      // loaded now, while the K loop runs.
      int const row = tm * kBlockM + c * 64 + warp * 16 + lane / 4;
      int const col0 = tn * kBlockN + 2 * (lane % 4);
      Elem* const Cb = C + static_cast<long long>(b) * M * N;
      Epilogue const epilogue = make_epilogue(Cb, N, alpha, beta);
      Prior prior[kBlockN / 8][2];
      load_prior(prior, M, N, row, col0, epilogue);
#else
      tile_coords(t, tiles_m, tiles_n, tm, tn);
#endif
#pragma unroll
      for (int i = 0; i < kAccum; ++i) acc[i] = 0.0f;
      for (int kt = 0; kt < k_tiles; ++kt, ++it) {
        int const s = it % DEPTH;
        mbar_wait(full_bar + 8 * s, static_cast<unsigned>(it / DEPTH) & 1u);
        // A: 64 rows (this warpgroup's) of 128 bytes, K-major, 8-row groups 1024 bytes apart (SBO); the
        // k16 step kk starts 32 bytes further (inside the swizzle row; the hardware swizzles the address).
        // B: 64 K rows x kBlockN columns, N-major, in 64-column boxes of 8 KiB: LBO = 8 KiB (next 64
        // columns), SBO = 1024 bytes (next 8 K rows); the k16 step kk starts 16 rows = 2048 bytes further.
        unsigned const a_stage = a_smem + s * kABytes + c * (64 * 128);
        unsigned const b_stage = b_smem + s * kBBytes;
        fence_accumulators(acc);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < kBlockK / 16; ++kk) {
          wgmma_tile<kBlockN>(acc, make_desc(a_stage + kk * 32, 16, 1024),
                              make_desc(b_stage + kk * 2048, kBBoxBytes, 1024), 1);
        }
        wgmma_commit();
        // Keep this slice's wgmmas in flight; the previous slice's are done, so its stage can be refilled.
        wgmma_wait<1>();
        fence_accumulators(acc);
        if (kt > 0 && lane == 0) mbar_arrive(empty_bar + 8 * ((it - 1) % DEPTH));
      }
      wgmma_wait<0>();
      fence_accumulators(acc);
      if (k_tiles > 0 && lane == 0) mbar_arrive(empty_bar + 8 * ((it - 1) % DEPTH));

      // Accumulator layout of wgmma m64nNk16 (FP32): warp w of the warpgroup holds rows 16w .. 16w + 15;
      // lane l holds, for each 8-column group j, acc[4j], acc[4j + 1] at (row 16w + l / 4, columns
      // 8j + 2 (l % 4) + {0, 1}) and acc[4j + 2], acc[4j + 3] at row 16w + 8 + l / 4, same columns.
#if KOPT_BATCHED
      store_tile(acc, prior, Cb, M, N, row, col0, c_pair, epilogue);
#else
      int const row = tm * kBlockM + c * 64 + warp * 16 + lane / 4;
      int const col0 = tn * kBlockN + 2 * (lane % 4);
#pragma unroll
      for (int j = 0; j < kBlockN / 8; ++j) {
        store_pair(C, M, N, row, col0 + 8 * j, acc[4 * j], acc[4 * j + 1], c_pair);
        store_pair(C, M, N, row + 8, col0 + 8 * j, acc[4 * j + 2], acc[4 * j + 3], c_pair);
      }
#endif
    }
  }
#else
  // Not compiled for sm_90a (no wgmma, no TMA here): a plain FP32 loop over the same tiles.
  for (int t = static_cast<int>(blockIdx.x); t < num_tiles; t += static_cast<int>(gridDim.x)) {
    int tm = 0;
    int tn = 0;
#if KOPT_BATCHED
    int const b = t / matrix_tiles;  // the matrix
    tile_coords(t - b * matrix_tiles, tiles_m, tiles_n, tm, tn);
    Elem* const Cb = C + static_cast<long long>(b) * M * N;
    Elem const* const Ab = A + static_cast<long long>(b) * M * K;
    Elem const* const Bb = B + static_cast<long long>(b) * K * N;
    Epilogue const epilogue = make_epilogue(Cb, N, alpha, beta);
#endif
    for (int e = static_cast<int>(threadIdx.x); e < kBlockM * kBlockN; e += kThreads) {
      int const row = tm * kBlockM + e / kBlockN;
      int const col = tn * kBlockN + e % kBlockN;
      if (row >= M || col >= N) continue;
      float sum = 0.0f;
#if KOPT_BATCHED
      for (int k = 0; k < K; ++k) {
        sum += kopt_strategy::to_float(Ab[static_cast<long long>(row) * K + k]) *
               kopt_strategy::to_float(Bb[static_cast<long long>(k) * N + col]);
      }
      Cb[static_cast<long long>(row) * N + col] = kopt_strategy::from_float<Elem>(epilogue(sum, row, col));
#else
      for (int k = 0; k < K; ++k) {
        sum += kopt_strategy::to_float(A[static_cast<long long>(row) * K + k]) *
               kopt_strategy::to_float(B[static_cast<long long>(k) * N + col]);
      }
      C[static_cast<long long>(row) * N + col] = kopt_strategy::from_float<Elem>(sum);
#endif
    }
  }
  (void)map_a;
  (void)map_b;
  (void)c_pair;
#endif
}

// The mma.sync tile of tensor_core_mma (tensor_core_mma_tile.cuh) for shapes TMA cannot take.
#if KOPT_BATCHED
// Batched as batched_tensor_core_mma: matrix first_matrix + blockIdx.z.
__global__ void __launch_bounds__(tensor_core_mma::kThreads)
    fallback_kernel(Elem* __restrict__ C, Elem const* __restrict__ A, Elem const* __restrict__ B, int M, int N,
                    int K, long long first_matrix, float alpha, float beta) {
  long long const b = first_matrix + blockIdx.z;
  tensor_core_mma::gemm_tile(C + b * M * N, A + b * M * K, B + b * K * N, M, N, K,
                             make_epilogue(C + b * M * N, N, alpha, beta));
}
#else
__global__ void __launch_bounds__(tensor_core_mma::kThreads)
    fallback_kernel(Elem* __restrict__ C, Elem const* __restrict__ A, Elem const* __restrict__ B, int M, int N,
                    int K) {
  tensor_core_mma::gemm_tile(C, A, B, M, N, K);
}
#endif
constexpr int kFallbackSmemBytes =
    STAGES * (tensor_core_mma::kAStage + tensor_core_mma::kBStage) * static_cast<int>(sizeof(Elem));

// ---- Host side ----

// cuTensorMapEncodeTiled from the driver through the runtime (nothing links -lcuda); null if unavailable.
PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static PFN_cuTensorMapEncodeTiled_v12000 const fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &status) !=
            cudaSuccess ||
        status != cudaDriverEntryPointSuccess) {
      return static_cast<PFN_cuTensorMapEncodeTiled_v12000>(nullptr);
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

// A row-major BF16 matrix of `rows` x `cols` (cols % 8 == 0) read in boxes of box_rows x 64 columns with
// the 128-byte swizzle; out-of-bounds elements read as zero.
bool encode_map(CUtensorMap* map, void const* ptr, int rows, int cols, int box_rows) {
  PFN_cuTensorMapEncodeTiled_v12000 const fn = encode_tiled();
  if (fn == nullptr) return false;
  cuuint64_t const dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  cuuint64_t const strides[1] = {static_cast<cuuint64_t>(cols) * sizeof(Elem)};
  cuuint32_t const box[2] = {64u, static_cast<cuuint32_t>(box_rows)};
  cuuint32_t const element_strides[2] = {1u, 1u};
  return fn(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(ptr), dims, strides, box,
            element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// Once per process: whether the wgmma kernel can run here, and how many of its blocks fill the GPU.
struct Setup {
  bool wgmma = false;
  bool fallback = false;
  int grid_limit = 0;
};

Setup const& setup() {
  static Setup const s = [] {
    Setup r;
    r.fallback = cudaFuncSetAttribute(fallback_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      kFallbackSmemBytes) == cudaSuccess;
    int device = 0;
    int major = 0;
    int sms = 0;
    int per_sm = 0;
    if (cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess && major == 9 &&
        cudaFuncSetAttribute(gemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes) ==
            cudaSuccess &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gemm_kernel, kThreads, kSmemBytes) ==
            cudaSuccess &&
        per_sm > 0 && encode_tiled() != nullptr) {
      r.wgmma = true;
      r.grid_limit = sms * per_sm;
    }
    return r;
  }();
  return s;
}

#if KOPT_BATCHED
// `batch` row-major BF16 matrices of `rows` x `cols` (cols % 8 == 0) packed one after another, as a 3-D
// tensor (cols, rows, batch), read in boxes of box_rows x 64 columns of one matrix with the 128-byte
// swizzle; elements outside a matrix read as zero.
bool encode_map_3d(CUtensorMap* map, void const* ptr, int batch, int rows, int cols, int box_rows) {
  PFN_cuTensorMapEncodeTiled_v12000 const fn = encode_tiled();
  if (fn == nullptr) return false;
  cuuint64_t const dims[3] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows),
                              static_cast<cuuint64_t>(batch)};
  cuuint64_t const strides[2] = {static_cast<cuuint64_t>(cols) * sizeof(Elem),
                                 static_cast<cuuint64_t>(rows) * static_cast<cuuint64_t>(cols) * sizeof(Elem)};
  cuuint32_t const box[3] = {64u, static_cast<cuuint32_t>(box_rows), 1u};
  cuuint32_t const element_strides[3] = {1u, 1u, 1u};
  return fn(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, const_cast<void*>(ptr), dims, strides, box,
            element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}
#endif

bool aligned16(void const* p) { return (reinterpret_cast<unsigned long long>(p) & 15ull) == 0ull; }

}  // namespace hopper_wgmma

#if KOPT_BATCHED
extern "C" void {{ENTRY}}({{T}}* C, const {{T}}* A, const {{T}}* B, int batch, int M, int N, int K
#if KOPT_ALPHA
                          , float alpha
#endif
#if KOPT_BETA
                          , float beta
#endif
                          ) {
  using namespace hopper_wgmma;
#if !KOPT_ALPHA
  float const alpha = 1.0f;
#endif
#if !KOPT_BETA
  float const beta = 0.0f;
#endif
  if (batch <= 0 || M <= 0 || N <= 0) return;
  Setup const& s = setup();
  long long const tiles = static_cast<long long>(batch) * kopt_strategy::ceil_div(M, kBlockM) *
                          kopt_strategy::ceil_div(N, kBlockN);
  bool const c_pair = (reinterpret_cast<unsigned long long>(C) & 3ull) == 0ull;
  // The kernel's tile index (an int) goes up to tiles + its grid. With beta it reads C as aligned pairs: a C
  // that is not 4-byte aligned takes the fallback.
  if (s.wgmma && K > 0 && K % 8 == 0 && N % 8 == 0 && aligned16(A) && aligned16(B) &&
      tiles <= 0x7fffffffLL - s.grid_limit && (c_pair || !KOPT_BETA)) {
    CUtensorMap map_a;
    CUtensorMap map_b;
    if (encode_map_3d(&map_a, A, batch, M, K, kBlockM) && encode_map_3d(&map_b, B, batch, K, N, kBlockK)) {
      int const grid = static_cast<int>(tiles < s.grid_limit ? tiles : s.grid_limit);
      gemm_kernel<<<grid, kThreads, kSmemBytes, kopt_strategy::launch_stream()>>>(map_a, map_b, C, A, B, batch, M,
                                                                                  N, K, c_pair, alpha, beta);
      return;
    }
  }
  if (!s.fallback) return;  // the launch would fail: C stays as it is and verification reports it
  // gridDim.z is at most 65535: larger batches take several launches.
  for (long long first = 0; first < batch; first += 65535) {
    long long const count = batch - first < 65535 ? batch - first : 65535;
    dim3 const grid(static_cast<unsigned>(kopt_strategy::ceil_div(N, BN)),
                    static_cast<unsigned>(kopt_strategy::ceil_div(M, BM)), static_cast<unsigned>(count));
    fallback_kernel<<<grid, tensor_core_mma::kThreads, kFallbackSmemBytes, kopt_strategy::launch_stream()>>>(
        C, A, B, M, N, K, first, alpha, beta);
  }
}
#else
extern "C" void {{ENTRY}}({{T}}* C, const {{T}}* A, const {{T}}* B, int M, int N, int K) {
  using namespace hopper_wgmma;
  if (M <= 0 || N <= 0) return;
  Setup const& s = setup();
  if (s.wgmma && K > 0 && K % 8 == 0 && N % 8 == 0 && aligned16(A) && aligned16(B)) {
    CUtensorMap map_a;
    CUtensorMap map_b;
    if (encode_map(&map_a, A, M, K, kBlockM) && encode_map(&map_b, B, K, N, kBlockK)) {
      long long const tiles = static_cast<long long>(kopt_strategy::ceil_div(M, kBlockM)) *
                              kopt_strategy::ceil_div(N, kBlockN);
      int const grid = static_cast<int>(tiles < s.grid_limit ? tiles : s.grid_limit);
      bool const c_pair = (reinterpret_cast<unsigned long long>(C) & 3ull) == 0ull;
      gemm_kernel<<<grid, kThreads, kSmemBytes, kopt_strategy::launch_stream()>>>(map_a, map_b, C, A, B, M, N, K, c_pair);
      return;
    }
  }
  if (!s.fallback) return;  // the launch would fail: C stays as it is and verification reports it
  dim3 const grid(static_cast<unsigned>(kopt_strategy::ceil_div(N, BN)),
                  static_cast<unsigned>(kopt_strategy::ceil_div(M, BM)));
  fallback_kernel<<<grid, tensor_core_mma::kThreads, kFallbackSmemBytes, kopt_strategy::launch_stream()>>>(C, A, B, M, N, K);
}
#endif
