// The column reductions' cross-block step (spliced into col_reduce_split_rows and mid_reduce_split_rows by
// `// kopt:include col_split.cuh`, after col_strip.cuh). Block `piece` of the `pieces` >= 2 blocks that
// share a strip (its stretch of rows combined into acc over the block: strip_combine's ty == 0 threads)
// stores its STRIP partial columns at strip_partials[piece * STRIP + slot], fences and draws a ticket from
// the strip's counter with atomicInc, which wraps back to 0 when the strip's last block draws
// (self-resetting, so back-to-back launches work). That block reads the strip's partials from L2 (other
// SMs wrote them) as float4s spread over all its threads, thread (g, q) combining slots 4q .. 4q + 3 of
// pieces g, g + kGroups, ... with four independent loads in flight; the groups are then combined by a
// fixed tree in shared memory and the values written rounded once to T (deterministic: the order is
// fixed whatever order the blocks finish in).

__device__ __forceinline__ float4 combine4(float4 a, float4 b) {
  return make_float4(Op::combine(a.x, b.x), Op::combine(a.y, b.y), Op::combine(a.z, b.z), Op::combine(a.w, b.w));
}

__device__ __forceinline__ void split_finish(T* __restrict__ out, float (&acc)[kVec], float* strip_partials,
                                             unsigned int* ticket, StripScratch& scratch, long long piece,
                                             unsigned int pieces, int rows, int cols, long long c0, bool vec,
                                             int tx, int ty) {
  __shared__ bool last_piece;
  if (ty == 0) {
#pragma unroll
    for (int e = 0; e < kVec; ++e) strip_partials[piece * STRIP + e * kLanes + tx] = acc[e];
    __threadfence();  // the partials are visible device-wide before the ticket is drawn
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned int const drawn = atomicInc(ticket, pieces - 1u);
    last_piece = drawn == pieces - 1u;
  }
  __syncthreads();
  if (!last_piece) return;
  __threadfence();
  constexpr int kQuads = STRIP / 4;          // float4s per piece
  constexpr int kGroups = BLOCK / kQuads;    // at least 1: STRIP <= 4 * BLOCK
  static_assert(kGroups >= 1 && kGroups * STRIP <= kRowLanes * STRIP, "the scratch holds the groups");
  int const q = static_cast<int>(threadIdx.x) % kQuads;
  unsigned int const g = threadIdx.x / kQuads;
  float4 const* const quads = reinterpret_cast<float4 const*>(strip_partials);
  float4 sum = make_float4(Op::identity(), Op::identity(), Op::identity(), Op::identity());
  unsigned int p = g;
#pragma unroll 1
  for (; p + 3u * kGroups < pieces; p += 4u * kGroups) {
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = __ldcg(&quads[(p + u * kGroups) * kQuads + q]);
#pragma unroll
    for (int u = 0; u < 4; ++u) sum = combine4(sum, v[u]);
  }
#pragma unroll 1
  for (; p < pieces; p += kGroups) sum = combine4(sum, __ldcg(&quads[p * kQuads + q]));
  float4* const groups = reinterpret_cast<float4*>(&scratch[0][0]);  // [kGroups][kQuads]
  groups[g * kQuads + q] = sum;
  __syncthreads();
#pragma unroll 1
  for (unsigned int stride = kGroups / 2; stride > 0; stride >>= 1) {
    if (g < stride) {
      sum = combine4(sum, groups[(g + stride) * kQuads + q]);
      groups[g * kQuads + q] = sum;
    }
    __syncthreads();
  }
  if (g != 0) return;
  float const values[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    int const slot = 4 * q + i;  // slot e * kLanes + tx of the partial columns
    long long const c = strip_column(c0, slot % kLanes, slot / kLanes, vec);
    if (c < cols) out[c] = kopt_strategy::from_float<T>(Op::finish(values[i], static_cast<float>(rows), rows, cols));
  }
}
