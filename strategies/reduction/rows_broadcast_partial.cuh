// A thread's share of loss_rows_broadcast_unrolled_single_pass's sum (spliced into the namespace of
// loss_rows_unrolled_single_pass.cu by `// kopt:include rows_broadcast_partial.cuh`, after hinted_loads.cuh,
// loss_op.cuh's `Op` and unrolled_single_pass.cuh, whose walk over x it follows). x is rows x cols, row-major
// (n = rows * cols elements), and y a vector of cols values broadcast along x's rows: element i of x pairs with
// y[i % cols], PyTorch's broadcasting of a (cols,) tensor against a (rows, cols) one (KernelBench's hinge loss,
// mean(clamp(1 - predictions * targets, min=0)) with targets the size of the last dimension).
//
// x is read as unrolled_single_pass.cuh reads it: a scalar head up to its first 16-byte boundary, the packs
// p = tid, tid + S, ... (S threads in the grid) with UNROLL 128-bit loads in flight under the HINT policy,
// one predicated round for the packs left, a scalar tail. No division per pack: each thread keeps the column
// of its next pack and moves it by (S * kVec) % cols with one conditional subtraction. y is small and read by
// every row, so its loads are plain cached ones (ld.global.nc: L1, then L2), never evict-first. With YPacks
// (cols a multiple of kVec and x and y 16-byte aligned, so that a pack of x lies in one row and starts at a
// column that is a multiple of kVec) one 128-bit load of y goes beside each pack of x; otherwise each element
// reads its y value alone, the column wrapping to 0 at a row's end (any cols >= 1, packs across rows too).

// The column after c (0 after the last one).
__device__ __forceinline__ unsigned next_column(unsigned c, unsigned cols) { return c + 1u == cols ? 0u : c + 1u; }

// (c + step) % cols for c, step < cols (< 2^31: the sum fits 32 bits).
__device__ __forceinline__ unsigned advance_column(unsigned c, unsigned step, unsigned cols) {
  c += step;
  return c >= cols ? c - cols : c;
}

// acc folded with the pack a of x, whose first element is in column c: beside y's pack b (YPacks), or beside
// y[c], y[c + 1], ... read one by one (b unused).
template <bool YPacks>
__device__ __forceinline__ float fold_pack(float acc, uint4 const& a, uint4 const& b, T const* __restrict__ y,
                                           unsigned c, unsigned cols) {
#pragma unroll
  for (int e = 0; e < kVec; ++e) {
    if constexpr (YPacks) {
      acc = Op::element(acc, pack_value(a, e), pack_value(b, e));
    } else {
      acc = Op::element(acc, pack_value(a, e), kopt_strategy::to_float(y[c]));
      c = next_column(c, cols);
    }
  }
  return acc;
}

// This thread's share of sum_{i < n} map(x[i], y[i % cols]), for n = rows * cols > 0 (so cols > 0).
template <bool YPacks>
__device__ __forceinline__ float broadcast_partial(T const* __restrict__ x, T const* __restrict__ y, long long n,
                                                   int cols) {
  using kopt_strategy::to_float;
  float acc[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) acc[u] = Op::identity();
  long long const tid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  long long const stride = static_cast<long long>(gridDim.x) * BLOCK;
  unsigned long long const ax = reinterpret_cast<unsigned long long>(x);
  // Head: the elements before x's first 16-byte boundary (none with YPacks); all of x when x is not aligned to
  // its element. y's alignment does not matter here: its values are found by column, not beside x's bytes.
  long long head = static_cast<long long>(((16ull - (ax & 15ull)) & 15ull) / sizeof(T));
  if (ax % sizeof(T) != 0 || head > n) head = n;
  for (long long i = tid; i < head; i += stride) acc[0] = Op::element(acc[0], to_float(x[i]), to_float(y[i % cols]));
  T const* xb = x + head;
  long long const m = n - head;
  long long const packs = m / kVec;
  unsigned long long const policy = evict_first_policy();
  unsigned const ucols = static_cast<unsigned>(cols);
  unsigned const step = static_cast<unsigned>(stride * kVec % cols);  // columns from one pack of a thread to its next
  long long p = tid;
  unsigned col = static_cast<unsigned>((head + p * kVec) % cols);  // the column of pack p's first element
  for (; p + (UNROLL - 1) * stride < packs; p += UNROLL * stride) {
    uint4 a[UNROLL];
    uint4 b[UNROLL] = {};
    unsigned c[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      c[u] = col;
      col = advance_column(col, step, ucols);
      a[u] = load16(xb + (p + u * stride) * kVec, policy);
      if constexpr (YPacks) b[u] = __ldg(reinterpret_cast<uint4 const*>(y + c[u]));
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) acc[u] = fold_pack<YPacks>(acc[u], a[u], b[u], y, c[u], ucols);
  }
  // At most UNROLL - 1 packs are left to this thread: one round of independent predicated loads.
  if (p < packs) {
    uint4 a[UNROLL];
    uint4 b[UNROLL] = {};
    unsigned c[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL - 1; ++u) {
      c[u] = col;
      col = advance_column(col, step, ucols);
      if (p + u * stride < packs) {
        a[u] = load16(xb + (p + u * stride) * kVec, policy);
        if constexpr (YPacks) b[u] = __ldg(reinterpret_cast<uint4 const*>(y + c[u]));
      }
    }
#pragma unroll
    for (int u = 0; u < UNROLL - 1; ++u) {
      if (p + u * stride < packs) acc[u] = fold_pack<YPacks>(acc[u], a[u], b[u], y, c[u], ucols);
    }
  }
  // Tail: fewer than kVec elements after the last full pack (tid < kVec here: one division per such thread).
  long long const t = packs * kVec + tid;
  if (t < m) acc[0] = Op::element(acc[0], to_float(xb[t]), to_float(y[(head + t) % cols]));
#pragma unroll
  for (int u = 1; u < UNROLL; ++u) acc[0] = Op::combine(acc[0], acc[u]);
  return acc[0];
}
