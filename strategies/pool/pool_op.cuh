// The pooling families' operation, spliced into a pooling template's namespace by `// kopt:include
// pool_op.cuh`: the task's `combine` (over a, b), `identity` and `finish` (over s, the combined window,
// and k, the number of window elements K*K as a float; pool3d_ncdhw also v, below), in FP32
// ([strategy_params], docs/strategies.md). Max pooling: fmaxf(a, b), -INFINITY, s. Average pooling: a + b,
// 0.0f, s / k. The templates combine a window's elements in other groupings than (ky, kx) order
// (pool2d_smem_tile: row by row), so `combine` must be associative and commutative, as for the reduction
// family.
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif

struct PoolOp {
  __device__ static __forceinline__ float identity() { return ({{identity}}); }
  __device__ static __forceinline__ float combine(float a, float b) { return ({{combine}}); }
  // v: the window's elements inside the input (pool3d_ncdhw, whose windows reach into the padding: k counts
  // the padded ones too, PyTorch's count_include_pad divisor; v is the divisor without). Unpadded windows have
  // v = k.
  __device__ static __forceinline__ float finish(float s, float k, float v) {
    (void)s;
    (void)k;
    (void)v;
    return ({{finish}});
  }
  __device__ static __forceinline__ float finish(float s, float k) { return finish(s, k, k); }
};
