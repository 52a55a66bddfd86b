// Shared by the batched GEMM templates: KOPT_ALPHA (a manifest `defines`) makes C[b] = alpha * A[b] B[b]
// (cuBLAS's gemmStridedBatched with beta = 0, torch.baddbmm's alpha with beta = 0): the entry takes
// `float alpha` last and the tile's epilogue multiplies each FP32 product by it before the one rounding.
// KOPT_BETA (with KOPT_ALPHA) makes C[b] = alpha * A[b] B[b] + beta * C[b] (gemmStridedBatched with any
// beta): the entry also takes `float beta` and the epilogue reads the element of C it is about to replace.
// As in BLAS, C is not read where beta == 0 (a NaN there does not survive). Each element is read by the
// thread that writes it, before it writes it. Without either the templates are as they always were.
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
};
#endif
