// Warp-wide inclusive scan (every lane gets the sum of the lanes up to itself); spliced into the scan
// templates' namespace by `// kopt:include warp_inclusive.cuh` (docs/strategies.md).
__device__ __forceinline__ float warp_inclusive(float v, int lane) {
#pragma unroll
  for (int offset = 1; offset < 32; offset <<= 1) {
    float const other = __shfl_up_sync(0xffffffffu, v, offset);
    if (lane >= offset) v += other;
  }
  return v;
}
