// Strategy single_pass_last_block, reduction family (kernel mode): *out = combine over in[0..n) in ONE
// kernel. GRID blocks (fewer for small n) stream the input with 128-bit loads (UNROLL independent loads
// in flight per thread), reduce each block with warp shuffles and store one partial per block into a
// __device__ array; thread 0 then fences and takes a ticket from a __device__ counter with atomicInc,
// which wraps back to 0 when the last block takes it (the counter resets itself for the next launch).
// The block that draws the last ticket combines all partials in a fixed order and rounds once to T, so
// the result is deterministic and the output needs no initialisation. Any alignment and any n work
// (scalar head up to the first 16-byte boundary and scalar tail).
//
// Knobs: BLOCK threads per block; UNROLL 128-bit loads in flight per thread; GRID the most blocks launched
// (multiples of the H200's 132 SMs; the rest is a grid-stride loop).
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob GRID = [132, 264, 528, 1056, 2112] resources=none
// kopt:constraint GRID * BLOCK <= 270336
// kopt:constraint BLOCK * UNROLL <= 4096
// kopt:launch grid=(max(1, min(GRID, ceil_div({{ARG2}}, BLOCK * UNROLL * 4)))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef GRID
#define GRID 528
#endif

namespace reduce_last_block {

using T = {{T}};

// kopt:include reduce_op.cuh
// kopt:include block_combine.cuh
// kopt:include grid_stride_partial.cuh
// kopt:include last_block_combine.cuh

}  // namespace reduce_last_block

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int n) {
  using namespace reduce_last_block;
  last_block_combine<BLOCK>(out, thread_partial(in, in, n < 0 ? 0 : n));
}
