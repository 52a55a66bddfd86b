// The row reductions' shared body (spliced into row_reduce_warp_per_row, row_reduce_block_per_row and
// row_normalize_block_per_row by `// kopt:include row_partial.cuh`, after axis_op.cuh and the knob UNROLL): a
// group of Group threads (Group a power of two, up to a block) combines a stretch of a row; group_combine and
// block_combine finish it.

// The value an element contributes: itself for the reductions; row_normalize's `map` (a square, an
// absolute value) for the normalisations.
struct AsIs {
  __device__ __forceinline__ float operator()(float v) const { return v; }
};

// This thread's share of combine over Map(x[i]) for i in [0, count), for the thread `lane` of a group of
// Group threads.
// A row starts at a 16-byte boundary only when cols is a multiple of kVec (and the matrix is aligned), so
// each stretch is read as a head of fewer than kVec elements up to its first 16-byte boundary, then
// 128-bit packs p = lane, lane + Group, ... (a group's loads are contiguous), UNROLL independent loads in
// flight per thread (the at most UNROLL - 1 packs left after the unrolled loop are read in one predicated
// round of independent loads), then a tail of fewer than kVec elements. 64-bit indices throughout.
template <int Group, typename Map = AsIs>
__device__ __forceinline__ float row_partial(T const* __restrict__ x, long long count, int lane,
                                             unsigned long long policy) {
  float acc[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) acc[u] = Op::identity();
  unsigned long long const address = reinterpret_cast<unsigned long long>(x);
  long long head = static_cast<long long>(((16ull - (address & 15ull)) & 15ull) / sizeof(T));
  if (address % sizeof(T) != 0 || head > count) head = count;
  for (long long i = lane; i < head; i += Group) acc[0] = Op::combine(acc[0], Map{}(load1(x + i)));
  T const* const body = x + head;
  long long const packs = (count - head) / kVec;
  long long p = lane;
#pragma unroll 1
  for (; p + (UNROLL - 1) * Group < packs; p += UNROLL * Group) {
    uint4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = load16(body + (p + u * Group) * kVec, policy);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
      for (int e = 0; e < kVec; ++e) acc[u] = Op::combine(acc[u], Map{}(pack_value(v[u], e)));
    }
  }
  if (UNROLL > 1 && p < packs) {
    uint4 v[UNROLL > 1 ? UNROLL - 1 : 1];
#pragma unroll
    for (int u = 0; u < UNROLL - 1; ++u) {
      if (p + u * Group < packs) v[u] = load16(body + (p + u * Group) * kVec, policy);
    }
#pragma unroll
    for (int u = 0; u < UNROLL - 1; ++u) {
      if (p + u * Group < packs) {
#pragma unroll
        for (int e = 0; e < kVec; ++e) acc[u] = Op::combine(acc[u], Map{}(pack_value(v[u], e)));
      }
    }
  }
  for (long long t = head + packs * kVec + lane; t < count; t += Group)
    acc[0] = Op::combine(acc[0], Map{}(load1(x + t)));
#pragma unroll
  for (int u = 1; u < UNROLL; ++u) acc[0] = Op::combine(acc[0], acc[u]);
  return acc[0];
}

// Combines v over aligned groups of Group lanes (Group <= 32) of a warp whose 32 lanes all call it; every
// lane of a group gets the group's value.
template <int Group>
__device__ __forceinline__ float group_combine(float v) {
#pragma unroll
  for (int offset = Group / 2; offset > 0; offset >>= 1) v = Op::combine(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// The combined value of a block of Threads threads, valid in thread 0 (warp shuffles, then the warps'
// values through shared memory, in a fixed order).
template <int Threads>
__device__ __forceinline__ float block_combine(float v) {
  v = group_combine<32>(v);
  if (Threads == 32) return v;
  __shared__ float warp_values[Threads / 32 > 0 ? Threads / 32 : 1];
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  if (lane == 0) warp_values[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < Threads / 32 ? warp_values[lane] : Op::identity();
    v = group_combine<32>(v);
  }
  return v;
}
