// The reduction family's operation, as the `Op` the shared reduction bodies fold with (spliced into a
// reduction template's namespace by `// kopt:include reduce_op.cuh`): one input stream, the task's
// `combine` and `identity` ([strategy_params], docs/strategies.md) in FP32.
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif

struct Op {
  static constexpr int kStreams = 1;
  __device__ static __forceinline__ float identity() { return ({{identity}}); }
  __device__ static __forceinline__ float combine(float a, float b) { return ({{combine}}); }
  __device__ static __forceinline__ float element(float acc, float x, float /*y*/) { return combine(acc, x); }
};
