// Tile status words of a decoupled look-back scan (epoch, flag, FP32 value in one 64-bit word, written and
// read whole, so a reader never sees a torn value) and a warp-wide inclusive scan; spliced into the scan
// templates by kopt:include (docs/strategies.md).
__device__ __forceinline__ unsigned long long make_status(unsigned epoch, unsigned long long flag,
                                                          float value) {
  return (static_cast<unsigned long long>(epoch) << 34) | (flag << 32) |
         static_cast<unsigned long long>(__float_as_uint(value));
}
__device__ __forceinline__ void store_status(long long tile, unsigned long long word) {
  *reinterpret_cast<volatile unsigned long long*>(&tile_status[tile]) = word;
}
__device__ __forceinline__ unsigned long long load_status(long long tile) {
  return *reinterpret_cast<volatile unsigned long long*>(&tile_status[tile]);
}

// Warp-wide inclusive scan of v (every lane gets its inclusive sum).
__device__ __forceinline__ float warp_inclusive(float v, int lane) {
#pragma unroll
  for (int offset = 1; offset < 32; offset <<= 1) {
    float const other = __shfl_up_sync(0xffffffffu, v, offset);
    if (lane >= offset) v += other;
  }
  return v;
}

