// Strategy spmv_ell_group: y = A x with A in row-major ELLPACK (row r owns slots r*W .. r*W + W - 1,
// its nonzeros first, then padding slots with column -1). A group of LANES consecutive lanes shares a row:
// lane l reads slots l, l + LANES, ..., so a group's slot loads are contiguous (the naive one thread per
// row reads addresses W elements apart). With EARLY_EXIT = 1 a group stops after the first chunk that
// holds a padding slot (the padding only follows the nonzeros), which skips the tail of half-empty rows;
// values are only loaded for real slots. Partial sums meet through xor shuffles (fixed order), lane 0
// writes y once. Every lane of a warp runs the same number of chunks, so the shuffles and ballots are
// always full-warp. Knobs: LANES per row, BLOCK threads, EARLY_EXIT.
//
// kopt:knob LANES = [1, 2, 4, 8, 16, 32]
// kopt:knob BLOCK = [64, 128, 256, 512]
// kopt:knob EARLY_EXIT = [0, 1] resources=none
// kopt:launch grid=(ceil_div({{ARG4}} * LANES, BLOCK)) block=(BLOCK) kernel={{ENTRY}}

#ifndef LANES
#define LANES 8
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef EARLY_EXIT
#define EARLY_EXIT 1
#endif

static_assert(LANES >= 1 && LANES <= 32 && (LANES & (LANES - 1)) == 0, "LANES is a power of two <= 32");
static_assert(BLOCK % 32 == 0, "BLOCK is whole warps");

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ y, const int* __restrict__ col_idx, const {{T}}* __restrict__ vals,
              const {{T}}* __restrict__ x, int M, int N, int W) {
  using namespace kopt_strategy;
  (void)N;
  long long const gid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  long long const row = gid / LANES;
  int const sub = static_cast<int>(gid % LANES);
  bool const live = row < M;
  long long const first = live ? row * W : 0;
  float sum = 0.0f;
  bool done = !live;
  for (int c = 0; c < W; c += LANES) {
    int const j = c + sub;
    int col = -1;
    if (!done && j < W) col = col_idx[first + j];
    if (col >= 0) sum += to_float(vals[first + j]) * to_float(x[col]);
#if EARLY_EXIT
    // The group is done once one of its slots is padding (or past W); the warp leaves when all are.
    bool const pad = done || j >= W || col < 0;
    unsigned const ballot = __ballot_sync(0xffffffffu, pad);
    unsigned const group_mask = (LANES == 32 ? 0xffffffffu : ((1u << LANES) - 1u))
                                << ((threadIdx.x & 31) / LANES * LANES);
    if ((ballot & group_mask) != 0u) done = true;
    if (__all_sync(0xffffffffu, done)) break;
#endif
  }
#pragma unroll
  for (int offset = LANES / 2; offset > 0; offset >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (live && sub == 0) y[row] = from_float<{{T}}>(sum);
}
