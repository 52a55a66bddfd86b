// The dot family's operation, as the `Op` the shared reduction bodies fold with (spliced into a dot
// template's namespace by `// kopt:include dot_op.cuh`): two input streams x and y, products accumulated
// with fused multiply-adds in FP32, partials added.
struct Op {
  static constexpr int kStreams = 2;
  __device__ static __forceinline__ float identity() { return 0.0f; }
  __device__ static __forceinline__ float combine(float a, float b) { return a + b; }
  __device__ static __forceinline__ float element(float acc, float x, float y) { return fmaf(x, y, acc); }
};
