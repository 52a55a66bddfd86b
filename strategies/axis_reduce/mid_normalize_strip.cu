// Strategy mid_normalize_strip, mid_normalize family (kernel mode): a row-major batch x rows x cols tensor
// scaled along its middle dimension, out[b][r][c] = in[b][r][c] * m_bc with
//   m_bc = finish(combine over map(in[b][r][c]) for r < rows),
// the task's [strategy_params] in FP32 (as row_normalize: `map` over `v`, `combine` over `a`, `b`,
// `identity`, `finish` over `s` and `n` = rows giving the multiplier). RMS normalisation over the channels
// of an N x C x H x W activation (x / sqrt(mean(x^2, dim=1, keepdim=True) + eps)) is batch N, rows C,
// cols H * W, `v * v`, `a + b`, `0.0f`, `rsqrtf(s / n + eps)`; F.normalize(x, dim=1) of a 4-D tensor is
// the same with `1.0f / fmaxf(sqrtf(s), 1e-12f)`.
//
// With MID_APPLY = 1 (the mid_softmax family: strategies.toml's mid_softmax_strip) the output is
// exp(in[b][r][c] - m_bc) instead of the product: a softmax over the middle dimension (torch.softmax(x, dim=1)
// of an N x C x H x W tensor, over the classes of a segmentation head) when the task's params make m_bc the
// log-sum-exp of the column, `v`, log-add-exp from `-INFINITY`, `s` (kopt_torch.reductions.LOG_ADD_EXP): one
// statistic, no overflow, no division.
// With MID_ONLINE = 1 as well (strategies.toml's mid_softmax_online) the column's log-sum-exp is the online
// softmax's statistic (online_lse.cuh: a running maximum and the sum of exp(x - max), one expf per element) over
// map(in[b][r][c]), finished by the task's `finish`, instead of `combine` (log-add-exp: an expf and a log1pf per
// element); `combine` and `identity` are not read, so it serves tasks whose statistic is a log-sum-exp.
//
// A thread owns one column c of one slab b and walks the rows: a warp's loads of a row are 32 contiguous
// elements (coalesced), the rows one cols-stride apart. When rows <= KEEP the thread loads all of its
// column into registers first (every load in flight at once), combines, finishes m_bc and writes the
// scaled values: one read and one write of the tensor. Taller slabs take two passes, UNROLL rows in flight
// per thread, the second pass reading what the first left in L2 or L1. Any shape and alignment. No
// cross-thread step at all: deterministic, no shared memory, no barrier.
//
// Knobs: BLOCK threads (columns) per block; KEEP the most rows held in registers; UNROLL rows in flight per
// thread on the two-pass path.
// kopt:knob BLOCK = [64, 128, 256, 512]
// kopt:knob KEEP = [0, 16, 32, 64]
// kopt:knob UNROLL = [2, 4, 8] resources=none
// kopt:constraint BLOCK * KEEP <= 16384
// kopt:launch grid=(max(1, ceil_div({{ARG4}}, BLOCK)) * {{ARG2}}) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 128
#endif
#ifndef KEEP
#define KEEP 32
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#define HINT 0
#ifndef MID_APPLY
#define MID_APPLY 0
#endif
#ifndef MID_ONLINE
#define MID_ONLINE 0
#endif
#if MID_ONLINE && MID_APPLY != 1
#error "MID_ONLINE computes a log-sum-exp: only with MID_APPLY = 1 (a softmax over the middle dimension)"
#endif

namespace mid_normalize_strip {

using T = {{T}};

// kopt:include ../reduction/hinted_loads.cuh
// kopt:include axis_op.cuh
// kopt:include online_lse.cuh

struct Map {
  __device__ __forceinline__ float operator()(float v) const { return ({{map}}); }
};

__device__ __forceinline__ void store1(T* p, float v) { __stcs(p, kopt_strategy::from_float<T>(v)); }

// An output from its input value and the column's statistic m (MID_APPLY above).
__device__ __forceinline__ float apply(float v, float m) {
#if MID_APPLY == 1
  return expf(v - m);
#else
  return v * m;
#endif
}

// A column's statistic of map(x) over its rows, finished: the task's combine from its identity, or with MID_ONLINE
// the online log-sum-exp (online_lse.cuh).
struct Column {
#if MID_ONLINE
  Stat s;
  __device__ __forceinline__ void add(float v) { add1(s, v); }
  __device__ __forceinline__ void merge_in(Column const& o) { merge(s, o.s.m, o.s.s); }
  __device__ __forceinline__ float finish(float n, int rows, int cols) const {
    return Op::finish(log_sum_exp(s), n, rows, cols);
  }
#else
  float a = Op::identity();
  __device__ __forceinline__ void add(float v) { a = Op::combine(a, v); }
  __device__ __forceinline__ void merge_in(Column const& o) { a = Op::combine(a, o.a); }
  __device__ __forceinline__ float finish(float n, int rows, int cols) const { return Op::finish(a, n, rows, cols); }
#endif
};

}  // namespace mid_normalize_strip

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int batch, int rows, int cols) {
  using namespace mid_normalize_strip;
  if (batch <= 0 || rows <= 0 || cols <= 0) return;
  unsigned const strips = (static_cast<unsigned>(cols) + BLOCK - 1u) / BLOCK;
  long long const b = blockIdx.x / strips;
  long long const c = static_cast<long long>(blockIdx.x % strips) * BLOCK + threadIdx.x;
  if (b >= batch || c >= cols) return;  // no barrier below: a thread past the edge simply leaves
  long long const stride = cols;
  T const* const x = in + b * rows * stride + c;
  T* const y = out + b * rows * stride + c;
  float const n = static_cast<float>(rows);
#if KEEP > 0
  if (rows <= KEEP) {
    float v[KEEP];
#pragma unroll
    for (int r = 0; r < KEEP; ++r)
      if (r < rows) v[r] = load1(x + r * stride);
    Column acc;
#pragma unroll
    for (int r = 0; r < KEEP; ++r)
      if (r < rows) acc.add(Map{}(v[r]));
    float const m = acc.finish(n, rows, cols);
#pragma unroll
    for (int r = 0; r < KEEP; ++r)
      if (r < rows) store1(y + r * stride, apply(v[r], m));
    return;
  }
#endif
  Column acc[UNROLL];  // one per row in flight (independent chains), merged at the end
  int r = 0;
#pragma unroll 1
  for (; r + UNROLL <= rows; r += UNROLL) {
    float v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = load1(x + (r + u) * stride);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) acc[u].add(Map{}(v[u]));
  }
  for (; r < rows; ++r) acc[0].add(Map{}(load1(x + r * stride)));
#pragma unroll
  for (int u = 1; u < UNROLL; ++u) acc[0].merge_in(acc[u]);
  float const m = acc[0].finish(n, rows, cols);
  // Last rows first: those most surely still cached.
  r = rows - 1;
#pragma unroll 1
  for (; r - (UNROLL - 1) >= 0; r -= UNROLL) {
    float v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = load1(x + (r - u) * stride);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) store1(y + (r - u) * stride, apply(v[u], m));
  }
  for (; r >= 0; --r) store1(y + r * stride, apply(load1(x + r * stride), m));
}
