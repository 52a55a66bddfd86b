// Strategy topk_indices_warp_per_row (family topk_indices, kernel mode): values[r][0..k) = the k largest
// values of row r of a row-major rows x cols matrix and indices[r][0..k) their columns (int32), in the
// order "descending value, then ascending column" (torch.topk(x, k, dim=-1), sorted; NaN above every
// value, -0 equal to +0 and written as +0). One warp per row, ROWS rows (warps) per block, no shared
// memory and no block barrier.
// Keys: a value is compared as a 32-bit key (larger value, larger key; NaN the largest), so a (key,
// column) pair has one place in the order. Scan: the row is read once with 16-byte loads (a scalar head up
// to the first 16-byte boundary, the vector body, a scalar tail last), UNROLL loads in flight per lane;
// each lane keeps a list of its L first (key, column) pairs in registers (L = 8 when k <= 8, as for
// mixture-of-experts routing, else LIST). A lane's columns arrive in increasing order, so insertion
// compares keys only and is branch-free (each entry takes the previous one, the new pair or itself).
// Filter: the warp minimum of every lane's (ceil(k/32))-th key bounds the row's k-th key from below, and
// the lanes' own last entries too: a value at or below the threshold is rejected by one float comparison
// and one vote, so after a few hundred values per lane almost nothing enters.
// Merge: k rounds of a warp arg-max over the lists' heads (the larger key, then the smaller column, by two
// 32-bit warp reductions); the winner pops its head. Lane r % 32 keeps round r's pair, and every 32
// rounds the warp writes 32 values and 32 indices at once. When L < k a lane may have held more than L
// of the first k: that shows as a full list emptied before the last round, and the rounds after it are
// then done exactly by re-reading the row once per round (rare: the first k spread over the lanes).
// Exact: values are compared and copied, never computed (BF16 values are exact in float).
// Knobs: LIST (pairs per lane when k > 8), ROWS (warps per block), UNROLL (16-byte loads in flight).
//
// kopt:knob LIST = [8, 16, 32]
// kopt:knob ROWS = [1, 2, 4, 8]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:launch grid=(max(1, ceil_div({{ARG3}}, ROWS))) block=(32 * ROWS) kernel={{ENTRY}}

#ifndef LIST
#define LIST 16
#endif
#ifndef ROWS
#define ROWS 4
#endif
#ifndef UNROLL
#define UNROLL 2
#endif

// kopt:include topk_pairs.cuh
}  // namespace kopt_topk_pairs

// clang-format off
extern "C" __global__ void __launch_bounds__(32 * ROWS)
    {{ENTRY}}({{T}}* __restrict__ values, int* __restrict__ indices, const {{T}}* __restrict__ in, int rows,
              int cols, int k) {
  // clang-format on
  using namespace kopt_topk_pairs;
  int const lane = static_cast<int>(threadIdx.x) & 31;
  long long const row = static_cast<long long>(blockIdx.x) * ROWS + static_cast<int>(threadIdx.x) / 32;
  if (row >= rows || cols <= 0 || k <= 0 || k > cols) return;  // whole warps leave
  const {{T}}* x = in + row * cols;
  {{T}}* y = values + row * k;
  int* yi = indices + row * k;
  auto const emit = [=](int r, int key, int column) {
    y[r] = from_float<{{T}}>(value_of(key));
    yi[r] = column;
  };
  if (LIST > 8 && k <= 8) {
    warp_topk<{{T}}, 8, UNROLL>(x, cols, k, lane, lane, 32, true, emit);
  } else {
    warp_topk<{{T}}, LIST, UNROLL>(x, cols, k, lane, lane, 32, true, emit);
  }
}
