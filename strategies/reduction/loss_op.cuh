// The loss family's operation, as the `Op` the shared reduction bodies fold with (spliced into a loss
// template's namespace by `// kopt:include loss_op.cuh`): two input streams x and y, each pair mapped by
// the task's `map` (over `x`, `y`, in FP32) and the results added in FP32; the last block writes the
// task's `finish` (over `s`, the sum, and `n`, the element count as a float): `s / n` for a mean. With
// KOPT_LOSS_ROWS defined (the loss_rows and loss_rows_broadcast families, loss_rows_unrolled_single_pass.cu)
// `finish` is over `s`, `rows` and `cols` instead (floats: `s / rows` for KL divergence's batchmean).
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif

struct Op {
  static constexpr int kStreams = 2;
  __device__ static __forceinline__ float identity() { return 0.0f; }
  __device__ static __forceinline__ float combine(float a, float b) { return a + b; }
  __device__ static __forceinline__ float element(float acc, float x, float y) { return acc + ({{map}}); }
};

#ifdef KOPT_LOSS_ROWS
struct Finish {
  float rows;
  float cols;
  __device__ __forceinline__ float operator()(float s) const { return ({{finish}}); }
};
#else
struct Finish {
  float n;
  __device__ __forceinline__ float operator()(float s) const { return ({{finish}}); }
};
#endif
