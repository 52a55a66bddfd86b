// 128-bit loads with an L2 cache policy, and the elements of a loaded pack as float (spliced into a
// template's namespace by `// kopt:include hinted_loads.cuh`, after `using T` and the knob HINT): shared by
// the reduction, dot and loss strategies of one wave (unrolled_single_pass.cuh) and the axis reductions
// (../axis_reduce). HINT 2: non-coherent, no L1 allocation, L2 evict-first policy and 256-byte L2 fetches
// (data read once must not push other lines, such as dirty data a previous kernel left, out of L2);
// HINT 1: ld.global.cs (streaming); HINT 0: plain ld.global.nc.

constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
constexpr int kPerWord = 4 / static_cast<int>(sizeof(T));

// Element e (0 <= e < kVec; a constant once the loops are unrolled) of a pack, as float. BF16 is the
// high half of a float: element 2k is the low half of word k (little endian).
__device__ __forceinline__ float pack_value(uint4 const& v, int e) {
  int const w = e / kPerWord;
  unsigned const word = w == 0 ? v.x : (w == 1 ? v.y : (w == 2 ? v.z : v.w));
  if (kPerWord == 1) return __uint_as_float(word);
  return __uint_as_float((e & 1) != 0 ? (word & 0xffff0000u) : (word << 16));
}

// The L2 policy the loads carry (HINT 2; unused otherwise).
__device__ __forceinline__ unsigned long long evict_first_policy() {
  unsigned long long policy = 0ull;
#if HINT == 2
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
#endif
  return policy;
}

// One 128-bit load of a 16-byte aligned address, as HINT says.
__device__ __forceinline__ uint4 load16(T const* p, unsigned long long policy) {
#if HINT == 2
  uint4 r;
  asm("ld.global.nc.L1::no_allocate.L2::cache_hint.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
      : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
      : "l"(p), "l"(policy));
  return r;
#elif HINT == 1
  (void)policy;
  return __ldcs(reinterpret_cast<uint4 const*>(p));
#else
  (void)policy;
  return __ldg(reinterpret_cast<uint4 const*>(p));
#endif
}
