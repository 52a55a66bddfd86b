// Strategy topk_indices_block_per_row (family topk_indices, kernel mode): values[r][0..k) = the k largest
// values of row r of a row-major rows x cols matrix and indices[r][0..k) their columns (int32), in the
// order "descending value, then ascending column" (torch.topk(x, k, dim=-1), sorted; NaN above every
// value, -0 equal to +0 and written as +0). One block of WARPS warps per row, for wide rows
// (vocabulary-sized) where a warp per row would leave too few, too long rows per SM.
// The block's threads stride over the row's 16-byte vectors, UNROLL loads in flight each (the scalar
// head before the first 16-byte boundary and the scalar tail go to warp 0, head first and tail last).
// Every lane keeps a list of its L first (key, column) pairs in registers (L = 8 when k <= 8, else LIST;
// a value is compared as a 32-bit key, NaN the largest), filled by branch-free insertion behind the
// warp's lower bound of its k-th key (the warp minimum of every lane's (ceil(k/32))-th key), so almost
// every value is rejected by one float comparison and one vote. Each warp merges its 32 lists into its
// own first k pairs (k rounds of a warp arg-max: the larger key, then the smaller column, by two 32-bit
// warp reductions) in shared memory; a warp whose lane held more than L of its first k (a full list
// emptied before the last round) finishes the rounds exactly by re-reading its part of the row once per
// round (rare). After one barrier warp 0 merges the WARPS sorted lists the same way (lane w owns list w
// and a read position) and writes k values and k indices, 32 at a time.
// Exact: values are compared and copied, never computed (BF16 values are exact in float).
// Knobs: KMAX (shared-memory list length; must be >= k), LIST (pairs per lane when k > 8), WARPS (warps
// per row/block), UNROLL (16-byte loads in flight).
//
// kopt:knob KMAX = [8, 16, 32, 64, 128]
// kopt:knob LIST = [8, 16, 32]
// kopt:knob WARPS = [2, 4, 8, 16]
// kopt:knob UNROLL = [1, 2, 4]
// Each warp's first k pairs must fit in its shared-memory list:
// kopt:constraint KMAX >= {{ARG5}}
// Registers: 2 * LIST list registers per thread, at most 128 registers a thread at 512 threads:
// kopt:constraint WARPS * LIST <= 256
// kopt:launch grid=(max(1, {{ARG3}})) block=(32 * WARPS) kernel={{ENTRY}}

#ifndef KMAX
#define KMAX 64
#endif
#ifndef LIST
#define LIST 16
#endif
#ifndef WARPS
#define WARPS 8
#endif
#ifndef UNROLL
#define UNROLL 2
#endif

// kopt:include topk_pairs.cuh
// Warp 0 merges the WARPS sorted lists of k pairs (kEmpty where a warp had fewer than k elements) and
// writes the row: k rounds of a warp arg-max over the lists' heads, the winner advancing its position.
template <typename T>
__device__ __forceinline__ void merge_warps(T* __restrict__ y, int* __restrict__ yi, int k, int lane,
                                            int const (*keys)[KMAX], int const (*columns)[KMAX]) {
  int next = 0;
  int head = lane < WARPS ? keys[lane][0] : kEmpty;
  int head_col = lane < WARPS ? columns[lane][0] : kNoColumn;
  int keep_key = kEmpty;
  int keep_col = kNoColumn;
  for (int r = 0; r < k; ++r) {
    int best = head;
    int best_col = head_col;
    warp_first(best, best_col);
    if (lane < WARPS && head == best && head_col == best_col) {
      ++next;
      head = next < k ? keys[lane][next] : kEmpty;
      head_col = next < k ? columns[lane][next] : kNoColumn;
    }
    if ((r & 31) == lane) {
      keep_key = best;
      keep_col = best_col;
    }
    if ((r & 31) == 31 || r == k - 1) {
      int const base = r & ~31;
      if (base + lane <= r) {
        y[base + lane] = from_float<T>(value_of(keep_key));
        yi[base + lane] = keep_col;
      }
    }
  }
}

}  // namespace kopt_topk_pairs

// clang-format off
extern "C" __global__ void __launch_bounds__(32 * WARPS)
    {{ENTRY}}({{T}}* __restrict__ values, int* __restrict__ indices, const {{T}}* __restrict__ in, int rows,
              int cols, int k) {
  // clang-format on
  using namespace kopt_topk_pairs;
  __shared__ int keys[WARPS][KMAX];  // each warp's first k pairs, in order
  __shared__ int columns[WARPS][KMAX];
  long long const row = blockIdx.x;
  if (row >= rows || cols <= 0 || k <= 0 || k > cols || k > KMAX) return;  // the whole block leaves
  int const tid = static_cast<int>(threadIdx.x);
  int const lane = tid & 31;
  int const warp = tid >> 5;
  const {{T}}* x = in + row * cols;
  int* const warp_keys = keys[warp];
  int* const warp_columns = columns[warp];
  auto const emit = [=](int r, int key, int column) {
    warp_keys[r] = key;
    warp_columns[r] = column;
  };
  if (LIST > 8 && k <= 8) {
    warp_topk<{{T}}, 8, UNROLL>(x, cols, k, lane, tid, 32 * WARPS, warp == 0, emit);
  } else {
    warp_topk<{{T}}, LIST, UNROLL>(x, cols, k, lane, tid, 32 * WARPS, warp == 0, emit);
  }
  __syncthreads();
  if (warp != 0) return;
  merge_warps<{{T}}>(values + row * k, indices + row * k, k, lane, keys, columns);
}
