// Strategy topk_block_per_row (family topk, kernel mode): out[r][0..k) = the k largest values of row r
// in descending order (values only; a value fills as many places as it has copies among the k largest).
// One block of WARPS warps per row, for wide rows (vocabulary-sized) where a warp per row would leave
// too few, too long rows per SM. The block's threads stride over the row's 16-byte vectors (a scalar
// head up to the first 16-byte boundary and a scalar tail go to warp 0), UNROLL loads in flight each.
// Every lane keeps a descending list of its L largest values in registers (L = the smallest of 8, 16,
// 32, 64, KMAX that is >= k, chosen at run time); insertion is branch-free
// (list[i] = max(list[i], min(x, list[i-1]))) and happens only when some lane of the warp has a value
// above its warp's bound T = the warp minimum of every lane's (ceil(k/32))-th largest, a lower bound of
// the k-th largest of the warp's values (so after a few hundred values per lane almost nothing enters).
// Each warp then merges its 32 lists into its own top k (k rounds of a warp arg-max over the heads)
// in shared memory, and after one barrier warp 0 merges the WARPS sorted lists the same way (lane w
// owns list w and a read position) and writes the row's k values, 32 at a time.
// Exact: values are compared and copied, never computed (BF16 values are exact in float).
// Knobs: KMAX (longest list; must be >= k), WARPS (warps per row/block), UNROLL (loads in flight).
//
// kopt:knob KMAX = [8, 16, 32, 64, 128]
// kopt:knob WARPS = [2, 4, 8, 16]
// kopt:knob UNROLL = [1, 2, 4]
// Every lane's list must be able to hold the whole top k (all of it may sit in one lane):
// kopt:constraint KMAX >= {{ARG4}}
// Registers: a block of 32 * WARPS threads keeps WARPS * 32 lists of KMAX floats (at most 255 registers a
// thread at 256 threads, 128 at 512):
// kopt:constraint WARPS * KMAX <= 1024
// kopt:launch grid=({{ARG2}}) block=(32 * WARPS) kernel={{ENTRY}}

#ifndef KMAX
#define KMAX 64
#endif
#ifndef WARPS
#define WARPS 8
#endif
#ifndef UNROLL
#define UNROLL 2
#endif

// kopt:include topk_select.cuh
// The block's top k of one row: per-warp scans and merges into shared memory, then warp 0's merge.
template <typename T, int L, int Warps, int Unroll>
__device__ __forceinline__ void row_topk(T* __restrict__ y, const T* __restrict__ x, int cols, int k,
                                         float (*lists)[KMAX]) {
  int const tid = static_cast<int>(threadIdx.x);
  int const lane = tid & 31;
  int const warp = tid >> 5;
  Lane<L> st;
  st.init(k);
  scan_row<T, L, Unroll>(st, x, cols, lane, tid, 32 * Warps, warp == 0);
  merge_warp<L>(st.list, k, lane, [&](int r, float v) { lists[warp][r] = v; });
  __syncthreads();
  if (warp != 0) return;
  // Lane w < Warps reads list w (k sorted values) from position `next`.
  int next = 0;
  float head = lane < Warps ? lists[lane][0] : negative_infinity();
  float keep = negative_infinity();
  for (int r = 0; r < k; ++r) {
    float best = head;
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) best = fmaxf(best, __shfl_xor_sync(kFull, best, offset));
    unsigned const owners = __ballot_sync(kFull, head == best);
    if (lane == __ffs(owners) - 1) {
      ++next;
      head = next < k ? lists[lane][next] : negative_infinity();
    }
    if ((r & 31) == lane) keep = best;
    if ((r & 31) == 31 || r == k - 1) {
      int const base = r & ~31;
      if (base + lane <= r) y[base + lane] = from_float<T>(keep);
    }
  }
}

}  // namespace kopt_topk

extern "C" __global__ void __launch_bounds__(32 * WARPS)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols, int k) {
  using namespace kopt_topk;
  __shared__ float lists[WARPS][KMAX];  // each warp's top k, descending
  int const row = static_cast<int>(blockIdx.x);
  if (row >= rows || cols <= 0 || k <= 0 || k > cols || k > KMAX) return;  // the whole block leaves
  const {{T}}* x = in + static_cast<long long>(row) * cols;
  {{T}}* y = out + static_cast<long long>(row) * k;
  // The shortest list that holds k values (lists longer than KMAX are never instantiated).
  if (KMAX >= 8 && k <= 8) {
    row_topk<{{T}}, (KMAX < 8 ? KMAX : 8), WARPS, UNROLL>(y, x, cols, k, lists);
  } else if (KMAX >= 16 && k <= 16) {
    row_topk<{{T}}, (KMAX < 16 ? KMAX : 16), WARPS, UNROLL>(y, x, cols, k, lists);
  } else if (KMAX >= 32 && k <= 32) {
    row_topk<{{T}}, (KMAX < 32 ? KMAX : 32), WARPS, UNROLL>(y, x, cols, k, lists);
  } else if (KMAX >= 64 && k <= 64) {
    row_topk<{{T}}, (KMAX < 64 ? KMAX : 64), WARPS, UNROLL>(y, x, cols, k, lists);
  } else {
    row_topk<{{T}}, KMAX, WARPS, UNROLL>(y, x, cols, k, lists);
  }
}
