// The axis reductions' operation and element loads (spliced into every axis_reduce template's namespace by
// `// kopt:include ../reduction/hinted_loads.cuh
// kopt:include axis_op.cuh`, after `using T`, the knob HINT and ../reduction/hinted_loads.cuh, whose
// 128-bit loads they use). The task's [strategy_params]
// (docs/strategies.md) give, in FP32: `combine` over `a`, `b` (associative), `identity` (a literal), and
// `finish` over `s` (the combined value) and `n` (how many values were combined, as float): a sum is
// `a + b`, `0.0f`, `s`; a mean's finish is `s / n`; a maximum is `fmaxf(a, b)`, `-INFINITY`, `s`. A task
// whose finish names one of its own size scalars gets it renamed to the role it fills (`rows`, `cols`),
// which finish() also receives.
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif

struct Op {
  __device__ static __forceinline__ float identity() { return ({{identity}}); }
  __device__ static __forceinline__ float combine(float a, float b) { return ({{combine}}); }
  __device__ static __forceinline__ float finish(float s, float n, int rows, int cols) {
    (void)n;
    (void)rows;
    (void)cols;
    return ({{finish}});
  }
};

// One element, as float (heads, tails and unaligned matrices).
__device__ __forceinline__ float load1(T const* p) {
#if HINT == 1
  return kopt_strategy::to_float(__ldcs(p));
#else
  return kopt_strategy::to_float(__ldg(p));
#endif
}
