// Strategy row_reduce_warp_per_row, row_reduce family (kernel mode): out[r] = finish(combine over
// in[r*cols + c] for c < cols), a row-major rows x cols matrix. Each row belongs to a group of LANES
// threads of one warp (a whole warp, or 4 to 16 lanes for short rows), BLOCK / LANES rows per block, no
// shared memory and no block barrier: the group reads its row with 128-bit loads (a scalar head up to the
// row's first 16-byte boundary and a scalar tail, so any cols and any alignment), UNROLL loads in flight
// per thread, accumulates in FP32, combines with warp shuffles, and its first lane writes the row's value
// rounded once to T. Every element is read once; HINT picks the loads' cache policy.
//
// Knobs: LANES threads per row (a warp or part of one); BLOCK threads per block; UNROLL 128-bit loads in
// flight per thread; HINT the loads' cache policy (2: L2 evict-first + 256-byte fetches, 1: ld.global.cs,
// 0: ld.global.nc).
// kopt:knob LANES = [4, 8, 16, 32]
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob HINT = [0, 1, 2] resources=none
// kopt:launch grid=(max(1, ceil_div({{ARG2}}, BLOCK / LANES))) block=(BLOCK) kernel={{ENTRY}}

#ifndef LANES
#define LANES 32
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

namespace row_reduce_warp_per_row {

using T = {{T}};

// kopt:include ../reduction/hinted_loads.cuh
// kopt:include axis_op.cuh
// kopt:include row_partial.cuh

static_assert(LANES >= 1 && LANES <= 32 && (LANES & (LANES - 1)) == 0, "a power-of-two part of a warp");
static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");

}  // namespace row_reduce_warp_per_row

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  using namespace row_reduce_warp_per_row;
  constexpr int kRowsPerBlock = BLOCK / LANES;
  int const lane = static_cast<int>(threadIdx.x) % LANES;
  long long const block_row = static_cast<long long>(blockIdx.x) * kRowsPerBlock;
  long long const warp_row = block_row + (static_cast<int>(threadIdx.x) & ~31) / LANES;
  if (warp_row >= rows) return;  // a whole warp past the end; the others shuffle with all 32 lanes
  long long const row = block_row + static_cast<int>(threadIdx.x) / LANES;
  bool const live = row < rows;
  float v = Op::identity();
  if (live && cols > 0) v = row_partial<LANES>(in + row * cols, cols, lane, evict_first_policy());
  v = group_combine<LANES>(v);
  if (live && lane == 0)
    out[row] = kopt_strategy::from_float<T>(Op::finish(v, static_cast<float>(cols), rows, cols));
}
