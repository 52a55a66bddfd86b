// Strategy dot_unrolled_single_pass, dot family (kernel mode): *result = sum_i x[i] * y[i] in ONE kernel
// of one resident wave. GRID blocks (fewer for small n; __launch_bounds__ keeps registers low enough
// that GRID / 132 blocks fit on each SM) stream both vectors with UNROLL independent 128-bit load pairs
// in flight per thread (one FP32 accumulator each, fused multiply-adds) and an L2 evict-first cache
// policy, reduce each block with warp shuffles, and the block that draws the last ticket of a
// self-resetting __device__ counter adds the per-block partials in a fixed order and rounds once to T
// (deterministic; the result needs no zeroing). The body is unrolled_single_pass.cuh (shared with
// reduce_unrolled_single_pass).
//
// Knobs: BLOCK threads per block; UNROLL 128-bit load pairs in flight per thread; GRID the most blocks
// (multiples of the H200's 132 SMs: 1, 2, 4 or 8 per SM); HINT the load's cache policy (2: L2
// evict-first + 256-byte L2 fetch, 1: ld.global.cs streaming, 0: plain ld.global.nc).
// Constraints: at most 1024 resident threads per SM (64 registers a thread) and UNROLL x threads per SM
// bounded so the loaded registers (8 per load pair) fit.
// kopt:knob BLOCK = [256, 512, 1024]
// kopt:knob UNROLL = [2, 4, 8]
// kopt:knob GRID = [132, 264, 528, 1056] resources=none
// kopt:knob HINT = [0, 1, 2] resources=none
// kopt:constraint GRID * BLOCK <= 135168
// kopt:constraint GRID * BLOCK * UNROLL <= 540672
// kopt:launch grid=(max(1, min(GRID, ceil_div({{ARG3}}, BLOCK * UNROLL * 4)))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef GRID
#define GRID 264
#endif
#ifndef HINT
#define HINT 2
#endif

namespace unrolled_single_pass {

using T = {{T}};

// kopt:include dot_op.cuh
// kopt:include block_combine.cuh
// kopt:include last_block_combine.cuh
// kopt:include hinted_loads.cuh
// kopt:include unrolled_single_pass.cuh

}  // namespace unrolled_single_pass

extern "C" __global__ void __launch_bounds__(BLOCK, unrolled_single_pass::kMinBlocksPerSm)
    {{ENTRY}}({{T}}* __restrict__ result, const {{T}}* __restrict__ x, const {{T}}* __restrict__ y, int n) {
  using namespace unrolled_single_pass;
  last_block_combine<BLOCK>(result, thread_partial(x, y, n < 0 ? 0 : n));
}
