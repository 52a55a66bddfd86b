// Shared body of reduce_unrolled_single_pass, dot_unrolled_single_pass, loss_unrolled_single_pass and
// loss_rows_unrolled_single_pass (spliced in by `// kopt:include unrolled_single_pass.cuh` into their namespace;
// loss_rows_broadcast_unrolled_single_pass walks x the same way in rows_broadcast_partial.cuh, with this file's
// kMinBlocksPerSm). The including template defines, before
// this line, the knobs BLOCK, UNROLL, GRID, HINT, `using T`, the loads of hinted_loads.cuh and a struct
// `Op` (reduce_op.cuh, dot_op.cuh or loss_op.cuh) with
//   static constexpr int kStreams;                       1 (reduce: x only) or 2 (dot: x and y)
//   __device__ static float identity();
//   __device__ static float combine(float a, float b);   associative: partials of threads and blocks
//   __device__ static float element(float acc, float x, float y);   folds one element (y unused if 1)
// and includes block_combine.cuh and last_block_combine.cuh, which the entry kernel finishes with.
//
// One kernel, one wave: GRID blocks (fewer for small n) are all resident at once (__launch_bounds__
// asks for GRID / 132 blocks per SM, so the compiler keeps registers low enough), each thread walks
// the 16-byte packs p = tid, tid + S, ... (S = threads in the grid) and issues UNROLL independent
// 128-bit loads per stream (p, p + S, ..., p + (UNROLL-1) S: every load instruction of a warp reads 512
// contiguous bytes) before folding any of them into its UNROLL accumulators; the at most UNROLL-1 packs
// left to a thread after the unrolled loop are read by one predicated round (independent loads again),
// so medium sizes do not end in a chain of dependent single loads. The loads carry an L2 evict-first
// policy (HINT): data read once must not push other lines out of L2 -- in particular dirty lines a
// previous kernel left there, whose write-back would otherwise share the DRAM with this stream. The
// block reduces with warp shuffles; thread 0 stores the block's partial, fences and draws a ticket from
// a __device__ counter with atomicInc, which wraps to 0 when the last block draws (self-resetting, so
// back-to-back launches work); the last block combines all partials in a fixed order and rounds once
// to T. Deterministic; any n (scalar head up to the first 16-byte boundary, scalar tail) and any
// alignment (two streams with different offsets from a 16-byte boundary go element by element).

constexpr int kSms = 132;  // an H100/H200: GRID / kSms blocks must fit on one SM
constexpr int kMinBlocksPerSm = (GRID + kSms - 1) / kSms;
static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");
static_assert(Op::kStreams == 1 || Op::kStreams == 2, "one or two input streams");

__device__ __forceinline__ float scalar_y(T const* y, long long i) {
  return Op::kStreams == 2 ? kopt_strategy::to_float(y[i]) : 0.0f;
}

// This thread's share of the grid-wide result over x[0..n) (and y[0..n)). Count is int, or long long for
// loss_rows's rows * cols, which may not fit an int (an int keeps the code the int callers had: a 64-bit n
// changes their SASS).
template <class Count>
__device__ __forceinline__ float thread_partial(T const* __restrict__ x, T const* __restrict__ y, Count n) {
  using kopt_strategy::to_float;
  float acc[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) acc[u] = Op::identity();
  long long const tid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  long long const stride = static_cast<long long>(gridDim.x) * BLOCK;
  unsigned long long const ax = reinterpret_cast<unsigned long long>(x);
  unsigned long long const ay = reinterpret_cast<unsigned long long>(y);
  // Head: the elements before x's first 16-byte boundary (fewer than kVec). No vectors at all when x is
  // not element-aligned or (dot) y sits at another offset from a 16-byte boundary.
  long long head = static_cast<long long>(((16ull - (ax & 15ull)) & 15ull) / sizeof(T));
  if (ax % sizeof(T) != 0 || (Op::kStreams == 2 && ((ax ^ ay) & 15ull) != 0) || head > n) head = n;
  for (long long i = tid; i < head; i += stride) acc[0] = Op::element(acc[0], to_float(x[i]), scalar_y(y, i));
  T const* xb = x + head;
  T const* yb = y + head;
  long long const m = n - head;
  long long const packs = m / kVec;
  unsigned long long const policy = evict_first_policy();
  long long p = tid;
  for (; p + (UNROLL - 1) * stride < packs; p += UNROLL * stride) {
    uint4 a[UNROLL];
    uint4 b[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      a[u] = load16(xb + (p + u * stride) * kVec, policy);
      if (Op::kStreams == 2) b[u] = load16(yb + (p + u * stride) * kVec, policy);
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
      for (int e = 0; e < kVec; ++e)
        acc[u] = Op::element(acc[u], pack_value(a[u], e), Op::kStreams == 2 ? pack_value(b[u], e) : 0.0f);
    }
  }
  // At most UNROLL - 1 packs are left to this thread: p, p + stride, ... below packs. One round of
  // independent predicated loads reads them.
  if (p < packs) {
    uint4 a[UNROLL];
    uint4 b[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL - 1; ++u) {
      if (p + u * stride < packs) {
        a[u] = load16(xb + (p + u * stride) * kVec, policy);
        if (Op::kStreams == 2) b[u] = load16(yb + (p + u * stride) * kVec, policy);
      }
    }
#pragma unroll
    for (int u = 0; u < UNROLL - 1; ++u) {
      if (p + u * stride < packs) {
#pragma unroll
        for (int e = 0; e < kVec; ++e)
          acc[u] = Op::element(acc[u], pack_value(a[u], e), Op::kStreams == 2 ? pack_value(b[u], e) : 0.0f);
      }
    }
  }
  // Tail: fewer than kVec elements after the last full pack.
  long long const t = packs * kVec + tid;
  if (t < m) acc[0] = Op::element(acc[0], to_float(xb[t]), scalar_y(yb, t));
#pragma unroll
  for (int u = 1; u < UNROLL; ++u) acc[0] = Op::combine(acc[0], acc[u]);
  return acc[0];
}
