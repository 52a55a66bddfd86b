// Strategy topk_warp_per_row (family topk, kernel mode): out[r][0..k) = the k largest values of row r in
// descending order (values only; a value fills as many places as it has copies among the k largest).
// One warp per row, ROWS rows (warps) per block, no shared memory and no block barrier.
// Scan: each lane keeps a descending list of its L largest values in registers (L = the smallest of
// 8, 16, 32, 64, KMAX that is >= k, chosen at run time, so short k such as MoE routing pay for short
// lists). The row is read once with 16-byte loads (a scalar head up to the first 16-byte boundary, the
// vector body, a scalar tail), UNROLL loads in flight per lane. Inserting x into a sorted list is
// branch-free: list[i] = max(list[i], min(x, list[i-1])) from the end to the front (a no-op when x is
// not larger than the list's last value), and the warp inserts only when some lane has a candidate.
// Filter: T = the warp minimum of every lane's (ceil(k/32))-th largest value is a lower bound of the
// row's k-th largest (the lists hold at least k values >= T, and a list only ever trades a value for a
// larger one), so values <= T never enter; after a few hundred values per lane almost nothing does.
// Merge: k rounds of a warp arg-max over the lists' heads; the winning lane pops its head (a register
// shift). Lane r % 32 keeps round r's value, and every 32 rounds the warp writes 32 outputs at once.
// Exact: values are compared and copied, never computed (BF16 values are exact in float).
// Knobs: KMAX (longest list; must be >= k), ROWS (warps per block), UNROLL (16-byte loads in flight).
//
// kopt:knob KMAX = [8, 16, 32, 64, 128]
// kopt:knob ROWS = [1, 2, 4, 8]
// kopt:knob UNROLL = [1, 2, 4, 8]
// Every lane's list must be able to hold the whole top k (all of it may sit in one lane):
// kopt:constraint KMAX >= {{ARG4}}
// kopt:launch grid=(ceil_div({{ARG2}}, ROWS)) block=(32 * ROWS) kernel={{ENTRY}}

#ifndef KMAX
#define KMAX 64
#endif
#ifndef ROWS
#define ROWS 4
#endif
#ifndef UNROLL
#define UNROLL 2
#endif

// kopt:include topk_select.cuh
template <typename T, int L, int Unroll>
__device__ __forceinline__ void row_topk(T* __restrict__ y, const T* __restrict__ x, int cols, int k,
                                         int lane) {
  Lane<L> st;
  st.init(k);
  scan_row<T, L, Unroll>(st, x, cols, lane, lane, 32, true);
  merge_warp<L>(st.list, k, lane, [&](int r, float v) { y[r] = from_float<T>(v); });
}

}  // namespace kopt_topk

extern "C" __global__ void __launch_bounds__(32 * ROWS)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols, int k) {
  using namespace kopt_topk;
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const row = static_cast<int>(blockIdx.x) * ROWS + static_cast<int>(threadIdx.x) / 32;
  if (row >= rows || cols <= 0 || k <= 0 || k > cols || k > KMAX) return;  // whole warps leave
  const {{T}}* x = in + static_cast<long long>(row) * cols;
  {{T}}* y = out + static_cast<long long>(row) * k;
  // The shortest list that holds k values (lists longer than KMAX are never instantiated).
  if (KMAX >= 8 && k <= 8) {
    row_topk<{{T}}, (KMAX < 8 ? KMAX : 8), UNROLL>(y, x, cols, k, lane);
  } else if (KMAX >= 16 && k <= 16) {
    row_topk<{{T}}, (KMAX < 16 ? KMAX : 16), UNROLL>(y, x, cols, k, lane);
  } else if (KMAX >= 32 && k <= 32) {
    row_topk<{{T}}, (KMAX < 32 ? KMAX : 32), UNROLL>(y, x, cols, k, lane);
  } else if (KMAX >= 64 && k <= 64) {
    row_topk<{{T}}, (KMAX < 64 ? KMAX : 64), UNROLL>(y, x, cols, k, lane);
  } else {
    row_topk<{{T}}, KMAX, UNROLL>(y, x, cols, k, lane);
  }
}
