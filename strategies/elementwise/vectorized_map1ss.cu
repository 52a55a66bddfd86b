// Strategy vectorized_map1ss: y[i] = op(x[i], s, t) with two float scalars s and t, 128-bit loads and
// stores (two_scalar_map family: clamp(x, lo, hi), hardtanh, an affine a * x + b, SELU's alpha and scale).
// The body is map1_tile.cuh with both scalars bound into the op.
// Each thread moves ITEMS consecutive-in-a-warp elements per tile: ITEMS / VEC vectors of VEC elements,
// VEC = min(ITEMS, 16 / sizeof(T)) (a float4 or eight bf16 in one access). Vector j of a tile starts at
// element (j * BLOCK + thread) * VEC, so a warp's accesses are contiguous, and every load of the tile is
// issued before the first store (ITEMS / VEC independent 16-byte loads in flight per thread).
// GRID = 0 gives one tile per block; GRID = g > 0 caps the grid at g blocks per SM of a 132-SM H200 and
// the blocks walk the tiles grid-stride (fewer, longer-lived blocks). Unaligned buffers and the last
// partial vector take an element-by-element path, so any n and any pointer offset are correct.
//
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob ITEMS = [4, 8, 16, 32]
// kopt:knob GRID = [0, 1, 2, 4, 8] resources=none
// Resident blocks of BLOCK threads: at most 2048 threads per SM.
// kopt:constraint GRID == 0 || BLOCK * GRID <= 2048
// At most 16 KiB elements per block tile (keeps the loaded values in registers under __launch_bounds__).
// kopt:constraint BLOCK * ITEMS <= 16384
// kopt:launch grid=(GRID == 0 ? max(1, ceil_div({{ARG4}}, BLOCK * ITEMS)) : max(1, min(ceil_div({{ARG4}}, BLOCK * ITEMS), 132 * GRID))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 8
#endif
#ifndef GRID
#define GRID 0
#endif

namespace vectorized_map1ss {

using kopt_strategy::from_float;
using kopt_strategy::to_float;

struct ApplyOp {
  float s;
  float t;
  __device__ __forceinline__ float operator()(float x) const { return ({{op}}); }
};

// kopt:include map1_tile.cuh

}  // namespace vectorized_map1ss

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* y, const {{T}}* x, float s, float t, int n) {
  vectorized_map1ss::run<{{T}}>(y, x, n, vectorized_map1ss::ApplyOp{s, t});
}
