// Strategy dot_block_then_grid_two_pass, dot family (launcher mode): *result = sum_i x[i] * y[i].
// Pass 1: a grid of at most BLOCKS_PER_SM blocks per SM streams both vectors with 128-bit loads (UNROLL
// independent load pairs in flight per thread, one FP32 accumulator each, fused multiply-adds), reduces
// each block with warp shuffles and writes one partial per block into a static __device__ array. Pass 2:
// one block of 1024 threads adds the partials in a fixed order and rounds once to T (deterministic).
// When x and y share their offset from a 16-byte boundary, a scalar head reaches the boundary and the
// rest is vectorised; otherwise, and for the tail, elements are read one by one (any alignment, any n).
//
// Knobs: BLOCK threads per block; UNROLL 128-bit load pairs in flight per thread; BLOCKS_PER_SM caps pass
// 1's grid at that many blocks per SM (the rest is a grid-stride loop).
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob BLOCKS_PER_SM = [1, 2, 4, 8] resources=none
// kopt:constraint BLOCK * BLOCKS_PER_SM <= 2048
// kopt:constraint BLOCK * UNROLL <= 2048

#include <cuda_runtime.h>

#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef BLOCKS_PER_SM
#define BLOCKS_PER_SM 2
#endif

namespace dot_two_pass {

using T = {{T}};
constexpr int kMaxPartials = 8192;  // pass 1 never launches more blocks than this
constexpr int kFinalThreads = 1024;

__device__ float partials[kMaxPartials];

// kopt:include dot_op.cuh
// kopt:include block_combine.cuh
// kopt:include grid_stride_partial.cuh

__global__ void __launch_bounds__(BLOCK)
    partials_kernel(const T* __restrict__ x, const T* __restrict__ y, int n) {
  float const block_value = block_combine<BLOCK>(thread_partial(x, y, n));
  if (threadIdx.x == 0) partials[blockIdx.x] = block_value;
}

// kopt:include ../common/multiprocessors.cuh
// kopt:include two_pass_final.cuh

}  // namespace dot_two_pass

extern "C" void {{ENTRY}}({{T}}* result, const {{T}}* x, const {{T}}* y, int n) {
  using namespace dot_two_pass;
  if (n < 0) n = 0;
  unsigned const blocks = pass_one_blocks(n);
  partials_kernel<<<blocks, BLOCK, 0, kopt_strategy::launch_stream()>>>(x, y, n);
  final_kernel<<<1, kFinalThreads, 0, kopt_strategy::launch_stream()>>>(result, static_cast<int>(blocks));
}
