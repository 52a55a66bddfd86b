// Shared by the batched GEMM templates: KOPT_ALPHA (a manifest `defines`) makes C[b] = alpha * A[b] B[b]
// (cuBLAS's gemmStridedBatched with beta = 0, torch.baddbmm's alpha with beta = 0): the entry takes
// `float alpha` last and the tile's epilogue multiplies each FP32 product by it before the one rounding.
// Without it the templates are as they always were.
#ifndef KOPT_ALPHA
#define KOPT_ALPHA 0
#endif
#if KOPT_ALPHA
struct ScaleBy {
  float alpha;
  __device__ __forceinline__ float operator()(float v, int /*row*/, int /*col*/) const { return alpha * v; }
};
#endif
