// Strategy reduce_unrolled_single_pass, reduction family (kernel mode): *out = combine over in[0..n) in
// ONE kernel of one resident wave. GRID blocks (fewer for small n; __launch_bounds__ keeps registers low
// enough that GRID / 132 blocks fit on each SM) stream the input with UNROLL independent 128-bit loads
// in flight per thread (one accumulator each) and an L2 evict-first cache policy, reduce each block with
// warp shuffles, and the block that draws the last ticket of a self-resetting __device__ counter
// combines the per-block partials in a fixed order and rounds once to T (deterministic; the output needs
// no initialisation). The body is unrolled_single_pass.cuh (shared with dot_unrolled_single_pass).
//
// Knobs: BLOCK threads per block; UNROLL 128-bit loads in flight per thread; GRID the most blocks
// (multiples of the H200's 132 SMs: 1, 2, 4 or 8 per SM); HINT the load's cache policy (2: L2
// evict-first + 256-byte L2 fetch, 1: ld.global.cs streaming, 0: plain ld.global.nc).
// Constraints: at most 2048 resident threads per SM; UNROLL x threads per SM bounded so the loaded
// registers fit the register budget of that occupancy (32 registers a thread at 2048 threads per SM).
// kopt:knob BLOCK = [256, 512, 1024]
// kopt:knob UNROLL = [2, 4, 8]
// kopt:knob GRID = [132, 264, 528, 1056] resources=none
// kopt:knob HINT = [0, 1, 2] resources=none
// kopt:constraint GRID * BLOCK <= 270336
// kopt:constraint GRID * BLOCK * UNROLL <= 1081344
// kopt:constraint GRID * BLOCK < 270336 || UNROLL <= 2
// kopt:launch grid=(max(1, min(GRID, ceil_div({{ARG2}}, BLOCK * UNROLL * 4)))) block=(BLOCK) kernel={{ENTRY}}

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

// kopt:include reduce_op.cuh
// kopt:include block_combine.cuh
// kopt:include last_block_combine.cuh
// kopt:include hinted_loads.cuh
// kopt:include unrolled_single_pass.cuh

}  // namespace unrolled_single_pass

extern "C" __global__ void __launch_bounds__(BLOCK, unrolled_single_pass::kMinBlocksPerSm)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int n) {
  using namespace unrolled_single_pass;
  last_block_combine<BLOCK>(out, thread_partial(in, in, n < 0 ? 0 : n));
}
