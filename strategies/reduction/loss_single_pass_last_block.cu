// Strategy loss_single_pass_last_block, loss family (kernel mode): *out = finish(sum_i map(x[i], y[i])) in
// ONE kernel. GRID blocks (fewer for small n; the rest is a grid-stride loop) stream both vectors with
// 128-bit loads (UNROLL independent load pairs in flight per thread, one FP32 accumulator each), reduce
// each block with warp shuffles and store one partial per block into a __device__ array; thread 0
// fences and takes a ticket with atomicInc, which wraps back to 0 when the last block takes it. The block
// that draws the last ticket adds the partials in a fixed order, applies `finish` and rounds once to T:
// deterministic, and the output needs no initialisation. When x and y share their offset from a 16-byte
// boundary, a scalar head reaches the boundary and the rest is vectorised; otherwise, and for the tail,
// elements are read one by one, so any alignment and any n work. The body is grid_stride_partial.cuh
// (shared with dot_single_pass_last_block).
//
// Knobs: BLOCK threads per block; UNROLL 128-bit load pairs in flight per thread; GRID the most blocks
// launched (multiples of the H200's 132 SMs).
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob GRID = [132, 264, 528, 1056, 2112] resources=none
// kopt:constraint GRID * BLOCK <= 270336
// kopt:constraint BLOCK * UNROLL <= 2048
// kopt:launch grid=(max(1, min(GRID, ceil_div({{ARG3}}, BLOCK * UNROLL * 4)))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef GRID
#define GRID 528
#endif

namespace loss_last_block {

using T = {{T}};

// kopt:include loss_op.cuh
// kopt:include block_combine.cuh
// kopt:include grid_stride_partial.cuh
// kopt:include last_block_combine.cuh

}  // namespace loss_last_block

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ x, const {{T}}* __restrict__ y, int n) {
  using namespace loss_last_block;
  int const count = n < 0 ? 0 : n;
  last_block_combine<BLOCK>(out, thread_partial(x, y, count), Finish{static_cast<float>(count)});
}
