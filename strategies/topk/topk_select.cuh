// The per-lane sorted candidate lists and warp-level selection shared by the top-k strategies of this
// folder (spliced in by kopt:include lines, docs/strategies.md).
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

