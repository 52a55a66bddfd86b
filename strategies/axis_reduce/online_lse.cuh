// The online log-sum-exp statistic shared by row_logsumexp_online and mid_softmax_online (spliced into their
// namespaces by `// kopt:include online_lse.cuh`): a running maximum m and the sum s of exp(x - m) over the values
// seen, one expf per value, the log-sum-exp m + log(s) at the end. An empty statistic (nothing or only -inf
// seen) has m = -inf and gives -inf, as torch.logsumexp; a NaN anywhere gives NaN. A +inf gives NaN where
// torch.logsumexp gives +inf (kopt's inputs are finite; the log-add-exp `combine` of the generic strategies
// keeps +inf).
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif

// A thread's statistic: the largest value m seen and the sum s of exp(x - m) over the values seen.
struct Stat {
  float m = -INFINITY;
  float s = 0.0f;
};

// Merges the statistic (m2, s2) into `a`; an empty side (m = -inf) leaves the other unchanged.
__device__ __forceinline__ void merge(Stat& a, float m2, float s2) {
  if (m2 == -INFINITY) return;
  if (a.m == -INFINITY) {
    a.m = m2;
    a.s = s2;
    return;
  }
  float const m = fmaxf(a.m, m2);
  a.s = a.s * expf(a.m - m) + s2 * expf(m2 - m);
  a.m = m;
}

// Adds one value. fmaxf passes over a NaN, whose expf(x - m) then makes s NaN; only while nothing but -inf
// has been seen must a NaN be kept by hand (as m and s: merge and the final m + log(s) carry it on).
__device__ __forceinline__ void add1(Stat& a, float x) {
  float const m = fmaxf(a.m, x);
  if (m == -INFINITY) {
    if (x != x) a.m = a.s = x;
    return;
  }
  a.s = a.s * expf(a.m - m) + expf(x - m);
  a.m = m;
}

// The log-sum-exp of the values seen.
__device__ __forceinline__ float log_sum_exp(Stat const& a) { return a.m + logf(a.s); }
