// Warp and block combine with warp shuffles (spliced into a reduction or dot template's namespace by
// `// kopt:include block_combine.cuh`, after its `Op`: reduce_op.cuh or dot_op.cuh).

__device__ __forceinline__ float warp_combine(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v = Op::combine(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// The combined value of a block of Threads threads, valid in thread 0. Two calls in one kernel must be
// separated by a __syncthreads() (they share the warp values).
template <int Threads>
__device__ __forceinline__ float block_combine(float v) {
  __shared__ float warp_values[Threads / 32];
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  v = warp_combine(v);
  if (lane == 0) warp_values[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < Threads / 32 ? warp_values[lane] : Op::identity();
    v = warp_combine(v);
  }
  return v;
}
