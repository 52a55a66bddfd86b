// Shared by the batched GEMM templates: KOPT_ALPHA (a manifest `defines`) makes C[b] = alpha * A[b] B[b]
// (cuBLAS's gemmStridedBatched with beta = 0, torch.baddbmm's alpha with beta = 0): the entry takes
// `float alpha` last and the tile's epilogue multiplies each FP32 product by it before the one rounding.
// KOPT_BETA (with KOPT_ALPHA) makes C[b] = alpha * A[b] B[b] + beta * C[b] (gemmStridedBatched with any
// beta): the entry also takes `float beta` and the epilogue reads the element of C it is about to replace.
// As in BLAS, C is not read where beta == 0 (a NaN there does not survive). Each element is read by the
// thread that writes it, before it writes it. Without either the templates are as they always were.
// ScaleAddBeta also has a pair interface for the BF16 tiles whose threads own pairs of adjacent columns
// (tensor_core_mma_tile.cuh, hopper_wgmma_tma.cu): load_pair reads the two old elements with one 32-bit
// load where aligned and in bounds, apply_pair combines them. The tiles call load_pair for a run of pairs
// before they store any of them: C is written through another pointer than `c`, so the compiler may not
// move a load of C above an earlier store, and element by element every load was a round trip to memory
// between two stores; a run of loads is one round trip.
#ifndef KOPT_ALPHA
#define KOPT_ALPHA 0
#endif
#ifndef KOPT_BETA
#define KOPT_BETA 0
#endif
#if KOPT_ALPHA
struct ScaleBy {
  float alpha;
  __device__ __forceinline__ float operator()(float v, int /*row*/, int /*col*/) const { return alpha * v; }
};
#endif
#if KOPT_BETA
template <typename E>
struct ScaleAddBeta {
  float alpha;
  float beta;
  E const* c;  // this batch's C, row-major with N columns
  int ldc;
  __device__ __forceinline__ float operator()(float v, int row, int col) const {
    float const scaled = alpha * v;
    if (beta == 0.0f) return scaled;
    return scaled + beta * kopt_strategy::to_float(c[static_cast<long long>(row) * ldc + col]);
  }
  // The pair interface is for 2-byte elements (BF16): the two old elements of a pair are kept as one 32-bit
  // word, the first in the low half, and widened only where they are used (a pair of BF16 values would be
  // split into two registers as soon as it arrives, which waits for the load).
  using Prior = unsigned;
  // The old C at (row, col), inside C, and at (row, col + 1) where col + 1 < ldc (0 past the row's end): one
  // 32-bit load where the pair is aligned (even ldc and an aligned c; with odd ldc every other row), two
  // 16-bit loads otherwise. Nothing is read where beta == 0.
  __device__ __forceinline__ Prior load_pair(int row, int col) const {
    static_assert(sizeof(E) == 2, "the pair interface is for BF16 storage");
    if (beta == 0.0f) return 0u;
    E const* src = c + static_cast<long long>(row) * ldc + col;
    bool const second = col + 1 < ldc;
    if (second && kopt_strategy::aligned_to(src, 4)) return *reinterpret_cast<unsigned const*>(src);
    unsigned short const* halves = reinterpret_cast<unsigned short const*>(src);
    return static_cast<unsigned>(halves[0]) | (second ? static_cast<unsigned>(halves[1]) << 16 : 0u);
  }
  // load_pair where the caller knows that col + 1 < ldc and that the pair is 4-byte aligned (one load, or none).
  __device__ __forceinline__ Prior load_aligned_pair(int row, int col) const {
    static_assert(sizeof(E) == 2, "the pair interface is for BF16 storage");
    if (beta == 0.0f) return 0u;
    return *reinterpret_cast<unsigned const*>(c + static_cast<long long>(row) * ldc + col);
  }
  // v0, v1 (the FP32 products at (row, col), (row, col + 1)) become what operator() makes of each (a BF16
  // widened to FP32 is its bits in the upper half).
  __device__ __forceinline__ void apply_pair(float& v0, float& v1, Prior prior) const {
    v0 *= alpha;
    v1 *= alpha;
    if (beta == 0.0f) return;
    v0 = v0 + beta * __uint_as_float(prior << 16);
    v1 = v1 + beta * __uint_as_float(prior & 0xffff0000u);
  }
};
#endif
