// Strategy matrix_power_squaring_mma (family matrix_power, BF16 only, launcher mode, sm_80+).
// out = A^p for a row-major n x n BF16 matrix A and p >= 1 (p = 0 writes the identity; p < 0 is treated as
// 0), with FP32-accurate intermediates and one rounding to BF16 at the end, on the tensor cores.
// Schedule: binary exponentiation from the leading bit of p down (R = A, then per lower bit R = R * R
// and, when the bit is set, R = R * A): floor(log2 p) + popcount(p) - 1 products instead of p - 1.
// Precision: an intermediate power R is kept as two BF16 matrices, R = Rh + Rl with Rh = bf16(R) and
// Rl = bf16(R - Rh) (16 significant bits: |R - Rh - Rl| <= 2^-16 |R| per element), and a product of two
// such matrices is Xh * Yh + Xh * Yl + Xl * Yh accumulated in FP32 (Xl * Yl, at most 2^-16 of |X| |Y|, is
// dropped).
// A itself is exact in BF16 (no low part), so R * A takes two BF16 products and the first squaring one.
// The products are one pipeline per tile of C: the K slices of every term run through the STAGES-deep
// cp.async ring of tensor_core_mma (tensor_core_mma_tile.cuh: BM x BN tile, WARPS warps issuing
// mma.sync m16n8k16 on ldmatrix fragments, zero-filled edges, element copies for unaligned rows) into one
// set of FP32 accumulators, and the epilogue splits each result into its high and low BF16 parts (or,
// for the last product, rounds it once into out). The intermediates live in a static workspace (room for
// two powers, each a pair of n x n BF16 matrices; allocated once, grown only when a larger n needs it).
// Any n and any p work.
// Knobs: BM, BN (block tile), BK (K slice), STAGES (pipeline depth), WARPS (4 or 8 warps per block).
//
// kopt:knob BM = [64, 128, 256]
// kopt:knob BN = [64, 128, 256]
// kopt:knob BK = [32, 64]
// kopt:knob STAGES = [2, 3, 4]
// kopt:knob WARPS = [4, 8]
// A warp's accumulators are at most 128 floats per thread: (BM / 2) * (BN / (WARPS / 2)) <= 4096.
// kopt:constraint (BM / 2) * (BN / (WARPS / 2)) <= 4096
// A warp's columns are a multiple of 16 (one ldmatrix.x4.trans covers 16 columns):
// kopt:constraint (BN / (WARPS / 2)) % 16 == 0
// Dynamic shared memory at most 227 KiB (H100/H200):
// kopt:constraint STAGES * (BM * (BK + 8) + BK * (BN + 8)) * 2 <= 232448

#include <cuda_runtime.h>

// kopt:include tensor_core_mma_tile.cuh

namespace matrix_power_squaring_mma {

using namespace tensor_core_mma;  // Elem, the tile geometry, the cp.async ring and the mma.sync slice

constexpr int kSmemBytes = STAGES * (kAStage + kBStage) * static_cast<int>(sizeof(Elem));

// An FP32-accurate n x n matrix as BF16 parts, hi + lo; lo is nullptr when the matrix is exact in BF16.
struct Split {
  Elem const* hi;
  Elem const* lo;
};

// The operands of term t of X * Y: Xh * Yh, then Xh * Yl when Y has a low part, then Xl * Yh when X has.
__device__ __forceinline__ void term_operands(int t, Split X, Split Y, Elem const*& left, Elem const*& right) {
  if (t == 1 && Y.lo == nullptr) t = 2;
  left = t == 2 ? X.lo : X.hi;
  right = t == 1 ? Y.lo : Y.hi;
}

// C = X * Y (n x n, terms as term_operands, FP32 accumulators): into Ch = bf16(C) and Cl = bf16(C - Ch),
// or, when Cl is nullptr, into Ch = bf16(C) alone (the output).
__global__ void __launch_bounds__(kThreads)
    product_kernel(Elem* __restrict__ Ch, Elem* __restrict__ Cl, Split X, Split Y, int n) {
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
  int const terms = 1 + (Y.lo != nullptr ? 1 : 0) + (X.lo != nullptr ? 1 : 0);
  // Uniform per block: 16-byte chunks of a row are aligned when n is a multiple of 8 (the workspace keeps
  // every matrix on a 256-byte boundary; A and out come from the caller).
  bool const rows_vec = n % 8 == 0;
  bool const x_vec = rows_vec && kopt_strategy::aligned_to(X.hi, 16) &&
                     (X.lo == nullptr || kopt_strategy::aligned_to(X.lo, 16));
  bool const y_vec = rows_vec && kopt_strategy::aligned_to(Y.hi, 16) &&
                     (Y.lo == nullptr || kopt_strategy::aligned_to(Y.lo, 16));
  bool const c_pair = n % 2 == 0 && kopt_strategy::aligned_to(Ch, 4) &&
                      (Cl == nullptr || kopt_strategy::aligned_to(Cl, 4));

  float acc[kFragM][kFragN][4];
  zero_accumulators(acc);

  // Slice s of the pipeline is K slice s % per_term of term s / per_term: one ring over every term.
  int const per_term = (n + BK - 1) / BK;
  int const slices = terms * per_term;
  auto load = [&](int s, int stage) {
    Elem const* left;
    Elem const* right;
    term_operands(s / per_term, X, Y, left, right);
    load_slice(a_smem + stage * kAStage, b_smem + stage * kBStage, left, right, n, n, n, n, row0, col0,
               (s % per_term) * BK, x_vec, y_vec);
  };
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < slices) load(s, s);
    cp_async_commit();
  }
  for (int kt = 0; kt < slices; ++kt) {
    // Slice kt has landed for this thread; the barrier publishes every thread's copies and guarantees that
    // every warp is done with slice kt - 1, whose stage is refilled next.
    cp_async_wait<STAGES - 2>();
    __syncthreads();
    int const next = kt + STAGES - 1;
    if (next < slices) load(next, next % STAGES);
    cp_async_commit();
    int const s = kt % STAGES;
    multiply_slice(acc, a_smem + s * kAStage, b_smem + s * kBStage, warp_m0, warp_n0, lane);
  }
  cp_async_wait<0>();

  for_each_accumulator_pair(acc, row0, col0, warp_m0, warp_n0, lane, [&](int gm, int gn, float v0, float v1) {
    store_pair(Ch, n, n, gm, gn, v0, v1, c_pair);
    if (Cl != nullptr) {
      float const l0 = v0 - kopt_strategy::to_float(kopt_strategy::from_float<Elem>(v0));
      float const l1 = v1 - kopt_strategy::to_float(kopt_strategy::from_float<Elem>(v1));
      store_pair(Cl, n, n, gm, gn, l0, l1, c_pair);
    }
  });
}

void launch_product(Elem* Ch, Elem* Cl, Split X, Split Y, int n) {
  dim3 const grid(static_cast<unsigned>(kopt_strategy::ceil_div(n, BN)),
                  static_cast<unsigned>(kopt_strategy::ceil_div(n, BM)));
  product_kernel<<<grid, kThreads, kSmemBytes, kopt_strategy::launch_stream()>>>(Ch, Cl, X, Y, n);
}

}  // namespace matrix_power_squaring_mma

// kopt:include matrix_power_schedule.cuh

extern "C" void {{ENTRY}}({{T}}* out, const {{T}}* A, int n, int p) {
  namespace mp = matrix_power_squaring_mma;
  if (n <= 0) return;
  if (matrix_power_schedule::power_without_product(out, A, n, p)) return;
  static bool const smem_ready =
      cudaFuncSetAttribute(mp::product_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, mp::kSmemBytes) ==
      cudaSuccess;
  if (!smem_ready) return;  // the launch would fail: out stays as it is and verification reports it
  size_t const pitch = matrix_power_schedule::matrix_pitch(n);
  // Two powers, each a high and a low part: buffers + (2 * b + part) * pitch.
  auto* buffers = static_cast<{{T}}*>(matrix_power_schedule::workspace(4 * pitch * sizeof({{T}})));
  if (buffers == nullptr) return;  // out of memory: out stays as it is and verification reports it
  mp::Split const a{A, nullptr};
  mp::Split power = a;  // the power computed so far
  int next = 0;         // the buffer pair the next intermediate goes to (the other may hold `power`)
  matrix_power_schedule::for_each_product(p, [&](bool square, bool last) {
    {{T}}* hi = last ? out : buffers + (2 * next) * pitch;
    {{T}}* lo = last ? nullptr : buffers + (2 * next + 1) * pitch;
    mp::launch_product(hi, lo, power, square ? power : a, n);
    power = mp::Split{hi, lo};
    next ^= 1;
  });
}
