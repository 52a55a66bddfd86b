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

namespace kopt_topk {

using kopt_strategy::from_float;
using kopt_strategy::to_float;

constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ float negative_infinity() {
  return -__int_as_float(0x7f800000);
}

// Inserts x into the descending list, dropping the smallest value; a no-op when x <= list[L - 1].
template <int L>
__device__ __forceinline__ void insert(float (&list)[L], float x) {
#pragma unroll
  for (int i = L - 1; i > 0; --i) list[i] = fmaxf(list[i], fminf(x, list[i - 1]));
  list[0] = fmaxf(list[0], x);
}

// The running state of one lane: its list and the warp's lower bound of the k-th largest value.
template <int L>
struct Lane {
  float list[L];
  float bound;
  int rank;   // each lane contributes its (rank + 1) largest values to the bound: 32 * (rank + 1) >= k
  bool grew;  // some lane of the warp inserted since the bound was last refreshed (warp-uniform)

  __device__ __forceinline__ void init(int k) {
#pragma unroll
    for (int i = 0; i < L; ++i) list[i] = negative_infinity();
    bound = negative_infinity();
    rank = (k + 31) / 32 - 1;
    grew = false;
  }

  // Offers one value (-inf for "nothing"); every lane of the warp must call it together.
  __device__ __forceinline__ void offer(float x) {
    bool const wanted = x > fmaxf(list[L - 1], bound);
    if (__any_sync(kFull, wanted)) {
      // Lanes that do not want x may still insert it when it beats their own last value: harmless,
      // their list stays the top L of a subset of the lane's values that contains every wanted one.
      insert<L>(list, x);
      grew = true;
    }
  }

  // Recomputes the bound after insertions: min over lanes of list[rank] (rank <= 3 since k <= 128).
  __device__ __forceinline__ void refresh() {
    if (!grew) return;
    grew = false;
    // list[rank] as the minimum of list[0..rank] (the list is descending): a select on `rank == i`
    // would be turned back into a dynamic index, which moves the whole list to local memory.
    float own = list[0];
#pragma unroll
    for (int i = 1; i < (L < 4 ? L : 4); ++i) own = fminf(own, i <= rank ? list[i] : -negative_infinity());
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) own = fminf(own, __shfl_xor_sync(kFull, own, offset));
    bound = fmaxf(bound, own);
  }
};

// Offers row x[0..cols) to the lanes: scalar head up to a 16-byte boundary, 16-byte vector body with
// Unroll loads in flight per lane, scalar tail. `first` / `stride` select this warp's part of the
// vectors (a block-wide split uses them; a single warp passes its lane and 32).
template <typename T, int L, int Unroll>
__device__ __forceinline__ void scan_row(Lane<L>& st, const T* __restrict__ x, int cols, int lane, int first,
                                         int stride, bool edges) {
  constexpr int V = 16 / static_cast<int>(sizeof(T));
  unsigned long long const addr = reinterpret_cast<unsigned long long>(x);
  int head = static_cast<int>(((16ull - (addr & 15ull)) & 15ull) / sizeof(T));
  if (head > cols) head = cols;
  int const vectors = (cols - head) / V;
  int const tail = head + vectors * V;
  if (edges) {
    // Head and tail have fewer than V elements each: one round of the warp covers both.
    int const c = lane < head ? lane : tail + (lane - head);
    bool const in_row = lane < head || (lane - head < cols - tail);
    st.offer(in_row ? to_float(x[c]) : negative_infinity());
    st.refresh();
  }
  const T* __restrict__ body = x + head;
  for (int base = first - lane; base < vectors; base += stride * Unroll) {
    float v[Unroll][V];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      int const c = base + lane + u * stride;
      if (c < vectors) {
        auto const pack = kopt_strategy::load_pack<T, V>(body + static_cast<long long>(c) * V);
#pragma unroll
        for (int e = 0; e < V; ++e) v[u][e] = to_float(pack.v[e]);
      } else {
#pragma unroll
        for (int e = 0; e < V; ++e) v[u][e] = negative_infinity();
      }
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
#pragma unroll
      for (int e = 0; e < V; ++e) st.offer(v[u][e]);
    }
    st.refresh();
  }
}

// k rounds of a warp arg-max over the lists' heads; round r's value goes to emit(r, value) on lane
// r % 32 in batches of 32 (emit is called by lanes base + lane <= last of each batch).
template <int L, typename Emit>
__device__ __forceinline__ void merge_warp(float (&list)[L], int k, int lane, Emit emit) {
  float keep = negative_infinity();
  for (int r = 0; r < k; ++r) {
    float best = list[0];
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) best = fmaxf(best, __shfl_xor_sync(kFull, best, offset));
    unsigned const owners = __ballot_sync(kFull, list[0] == best);
    if (lane == __ffs(owners) - 1) {
#pragma unroll
      for (int i = 0; i < L - 1; ++i) list[i] = list[i + 1];
      list[L - 1] = negative_infinity();
    }
    if ((r & 31) == lane) keep = best;
    if ((r & 31) == 31 || r == k - 1) {
      int const base = r & ~31;
      if (base + lane <= r) emit(base + lane, keep);
    }
  }
}

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
