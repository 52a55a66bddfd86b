// Strategy loss_unrolled_single_pass, loss family (kernel mode): *out = finish(sum_i map(x[i], y[i])) in
// ONE kernel of one resident wave: a mean squared error, a hinge loss, a KL divergence, any loss that is
// a sum of per-element terms of two vectors. GRID blocks (fewer for small n) stream both vectors with
// UNROLL independent 128-bit load pairs in flight per thread (one accumulator each) and an L2
// evict-first cache policy, reduce each block with warp shuffles, and the block that draws the last
// ticket of a self-resetting __device__ counter adds the per-block partials in a fixed order, applies
// `finish` (the task's mean or sum) and rounds once to T (deterministic; the output needs no
// initialisation). The body is unrolled_single_pass.cuh (shared with the reduction and dot strategies).
//
// Knobs: BLOCK threads per block; UNROLL 128-bit load pairs in flight per thread; GRID the most blocks
// (multiples of the H200's 132 SMs); HINT the load's cache policy (2: L2 evict-first + 256-byte L2
// fetch, 1: ld.global.cs streaming, 0: plain ld.global.nc).
// Constraints: at most 2048 resident threads per SM; UNROLL x threads per SM bounded so the loaded
// registers (two streams) fit the register budget of that occupancy.
// kopt:knob BLOCK = [256, 512, 1024]
// kopt:knob UNROLL = [2, 4, 8]
// kopt:knob GRID = [132, 264, 528, 1056] resources=none
// kopt:knob HINT = [0, 1, 2] resources=none
// kopt:constraint GRID * BLOCK <= 270336
// kopt:constraint GRID * BLOCK * UNROLL <= 1081344
// kopt:constraint GRID * BLOCK < 270336 || UNROLL <= 2
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

// kopt:include loss_op.cuh
// kopt:include block_combine.cuh
// kopt:include last_block_combine.cuh
// kopt:include hinted_loads.cuh
// kopt:include unrolled_single_pass.cuh

}  // namespace unrolled_single_pass

extern "C" __global__ void __launch_bounds__(BLOCK, unrolled_single_pass::kMinBlocksPerSm)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ x, const {{T}}* __restrict__ y, int n) {
  using namespace unrolled_single_pass;
  int const count = n < 0 ? 0 : n;
  last_block_combine<BLOCK>(out, thread_partial(x, y, count), Finish{static_cast<float>(count)});
}
