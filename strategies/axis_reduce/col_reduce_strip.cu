// Strategy col_reduce_strip, col_reduce family (kernel mode): out[c] = finish(combine over
// in[r*cols + c] for r < rows), a row-major rows x cols matrix. A block owns a strip of STRIP consecutive
// columns and walks every row of it: its threads across the strip read one row's stretch with contiguous
// 128-bit loads, its threads down the strip take every (BLOCK / (STRIP / kVec))-th row with UNROLL loads
// in flight, each keeping its partial columns in FP32 registers; the partials are then combined over the
// block in shared memory by a fixed tree and written rounded once to T. One kernel, no cross-block step
// and no atomics; any rows, cols and alignment (element loads when rows do not start on 16-byte
// boundaries). col_strip.cuh holds the body.
//
// Knobs: STRIP columns per block; BLOCK threads per block; UNROLL rows in flight per thread; HINT the
// loads' cache policy (2: L2 evict-first + 256-byte fetches, 1: ld.global.cs, 0: ld.global.nc).
// Constraints: a strip's 16-byte packs fit the block (STRIP / 4 <= BLOCK), and UNROLL 128-bit loads per
// thread fit the 64 registers a 1024-thread block leaves.
// kopt:knob STRIP = [32, 64, 128, 256, 512]
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob HINT = [0, 1, 2] resources=none
// kopt:constraint STRIP <= 4 * BLOCK && BLOCK * UNROLL <= 4096
// kopt:launch grid=(max(1, ceil_div({{ARG3}}, STRIP))) block=(BLOCK) kernel={{ENTRY}}

#ifndef STRIP
#define STRIP 128
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef HINT
#define HINT 2
#endif

namespace col_reduce_strip {

using T = {{T}};

// kopt:include ../reduction/hinted_loads.cuh
// kopt:include axis_op.cuh
// kopt:include col_strip.cuh

}  // namespace col_reduce_strip

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  using namespace col_reduce_strip;
  __shared__ StripScratch scratch;
  int const tx = static_cast<int>(threadIdx.x) % kLanes;
  int const ty = static_cast<int>(threadIdx.x) / kLanes;
  long long const c0 = static_cast<long long>(blockIdx.x) * STRIP;
  bool const vec = cols % kVec == 0 && kopt_strategy::aligned_to(in, 16u);
  float acc[kVec];
#pragma unroll
  for (int e = 0; e < kVec; ++e) acc[e] = Op::identity();
  strip_accumulate(acc, in, 0, rows, cols, c0, vec, tx, ty, evict_first_policy());
  strip_combine(acc, scratch, tx, ty);
  strip_store(out, acc, rows, cols, c0, vec, tx, ty);
}
