// A thread's share of a grid-wide reduction over 128-bit packs (spliced into the namespace of
// block_then_grid_two_pass, single_pass_last_block and their dot_ twins by
// `// kopt:include grid_stride_partial.cuh`, after `using T`, the knobs BLOCK and UNROLL and the `Op`).
// Thread tid of a grid of `stride` threads folds the packs p = tid, tid + stride, ... with UNROLL
// independent 128-bit loads (per stream) in flight and one accumulator each. Elements before x's first
// 16-byte boundary (the head) and after the last full pack (the tail) are read one by one, so any
// pointer alignment and any n work; two streams at different offsets from a 16-byte boundary, or an x
// that is not element-aligned, go element by element. Arithmetic is FP32 for FP32 and BF16 storage.

constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack

// How many leading elements are read one by one before the packs start (n: no packs at all).
__device__ __forceinline__ long long scalar_head(T const* x, T const* y, int n) {
  unsigned long long const ax = reinterpret_cast<unsigned long long>(x);
  unsigned long long const ay = reinterpret_cast<unsigned long long>(y);
  long long head = static_cast<long long>(((16ull - (ax & 15ull)) & 15ull) / sizeof(T));
  if (ax % sizeof(T) != 0 || (Op::kStreams == 2 && ((ax ^ ay) & 15ull) != 0) || head > n) head = n;
  return head;
}

// y[i] as float for two streams; unused (0) for one.
__device__ __forceinline__ float scalar_y(T const* y, long long i) {
  return Op::kStreams == 2 ? kopt_strategy::to_float(y[i]) : 0.0f;
}

// This thread's share of the grid-wide result over x[0..n) (and y; pass x twice for one stream). The
// head, fewer than kVec elements, is read by a grid-stride loop, or with StepHead by one predicated read
// per thread when the grid has more threads than the head has elements (a loop otherwise).
template <bool StepHead = false>
__device__ __forceinline__ float thread_partial(T const* __restrict__ x, T const* __restrict__ y, int n) {
  using kopt_strategy::Pack;
  using kopt_strategy::to_float;
  float acc[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) acc[u] = Op::identity();
  long long const tid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  long long const stride = static_cast<long long>(gridDim.x) * BLOCK;
  long long const head = scalar_head(x, y, n);
  if (!StepHead || head > stride) {
    for (long long i = tid; i < head; i += stride)
      acc[0] = Op::element(acc[0], to_float(x[i]), scalar_y(y, i));
  } else if (tid < head) {
    acc[0] = Op::element(acc[0], to_float(x[tid]), scalar_y(y, tid));
  }
  T const* xb = x + head;
  T const* yb = y + head;
  long long const m = n - head;
  long long const packs = m / kVec;
  long long p = tid;
  for (; p + (UNROLL - 1) * stride < packs; p += UNROLL * stride) {
    Pack<T, kVec> a[UNROLL];
    Pack<T, kVec> b[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      a[u] = kopt_strategy::load_pack<T, kVec>(xb + (p + u * stride) * kVec);
      if (Op::kStreams == 2) b[u] = kopt_strategy::load_pack<T, kVec>(yb + (p + u * stride) * kVec);
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
      for (int e = 0; e < kVec; ++e)
        acc[u] = Op::element(acc[u], to_float(a[u].v[e]), Op::kStreams == 2 ? to_float(b[u].v[e]) : 0.0f);
    }
  }
  for (; p < packs; p += stride) {
    Pack<T, kVec> const a = kopt_strategy::load_pack<T, kVec>(xb + p * kVec);
    Pack<T, kVec> const b = Op::kStreams == 2 ? kopt_strategy::load_pack<T, kVec>(yb + p * kVec) : a;
#pragma unroll
    for (int e = 0; e < kVec; ++e) acc[0] = Op::element(acc[0], to_float(a.v[e]), to_float(b.v[e]));
  }
  long long const t = packs * kVec + tid;  // tail: fewer than kVec elements
  if (t < m) acc[0] = Op::element(acc[0], to_float(xb[t]), scalar_y(yb, t));
#pragma unroll
  for (int u = 1; u < UNROLL; ++u) acc[0] = Op::combine(acc[0], acc[u]);
  return acc[0];
}
