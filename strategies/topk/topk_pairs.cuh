// The per-lane (key, column) candidate lists and warp-level selection shared by the top-k-with-indices
// strategies of this folder (family topk_indices; spliced in by kopt:include lines, docs/strategies.md).
// The order is "descending value, then ascending column", NaN above every value (torch.topk), -0 equal
// to +0 (IEEE comparison). Values are compared as 32-bit keys (key_of): a larger key is a larger value,
// -0 and +0 share key 0, every NaN has the largest key. A column makes every element's place unique.
namespace kopt_topk_pairs {

using kopt_strategy::from_float;
using kopt_strategy::to_float;

constexpr unsigned kFull = 0xffffffffu;
constexpr int kEmpty = -2147483647 - 1;  // below every element's key: "no element"
constexpr int kNaNKey = 2147483647;      // every NaN's key
constexpr int kNoColumn = 2147483647;    // the column of kEmpty

__device__ __forceinline__ int key_of(float v) {
  int const b = __float_as_int(v);
  int const k = b >= 0 ? b : -(b & 0x7fffffff);  // negative values by magnitude: -0 -> 0, -inf -> -0x7f800000
  return v != v ? kNaNKey : k;
}

// The value of a key (key_of's inverse, except that -0 comes back as +0 and a NaN as 0x7fffffff).
__device__ __forceinline__ float value_of(int key) {
  unsigned const u = key >= 0 ? static_cast<unsigned>(key) : (0u - static_cast<unsigned>(key)) | 0x80000000u;
  return __uint_as_float(u);
}

// The float t with !(v <= t) exactly for the values v whose key is above `key`, or for every v (a NaN t)
// when key is kEmpty or the NaN key (there the exact comparison of the insertion decides).
__device__ __forceinline__ float threshold_of(int key) {
  return key == kEmpty ? __uint_as_float(0x7fffffffu) : value_of(key);
}

// Whether (ka, ca) comes before (kb, cb): the larger key, then the smaller column.
__device__ __forceinline__ bool before(int ka, int ca, int kb, int cb) {
  return ka > kb || (ka == kb && ca < cb);
}

// The warp's first (key, column) in that order (every lane gets it): two 32-bit warp reductions.
__device__ __forceinline__ void warp_first(int& key, int& column) {
  int const k = __reduce_max_sync(kFull, key);
  column = __reduce_min_sync(kFull, key == k ? column : kNoColumn);
  key = k;
}

// The running state of one lane: the L first (key, column) pairs of the values it was offered, and the
// warp's lower bound of the k-th largest key. A lane's columns arrive in increasing order, so a new
// element goes after every list entry of an equal key: the list compares keys only.
template <int L>
struct Lane {
  int key[L];
  int col[L];
  int bound;  // every lane's (rank + 1)-th key is at least this: the row's k-th key is too (kEmpty: none)
  float thr;  // threshold_of(max(key[L - 1], bound)): values at or below it cannot enter
  int rank;   // 32 * (rank + 1) >= k; no bound when rank >= min(L, 4)
  bool grew;  // some lane of the warp inserted since the bound was last refreshed (warp-uniform)

  __device__ __forceinline__ void init(int k) {
#pragma unroll
    for (int i = 0; i < L; ++i) {
      key[i] = kEmpty;
      col[i] = kNoColumn;
    }
    bound = kEmpty;
    thr = threshold_of(kEmpty);
    rank = (k + 31) / 32 - 1;
    grew = false;
  }

  // Inserts (xk, xc) in order, dropping the last pair; a no-op when xk <= key[L - 1]. Branch-free.
  __device__ __forceinline__ void insert(int xk, int xc) {
#pragma unroll
    for (int i = L - 1; i > 0; --i) {
      bool const above_previous = xk > key[i - 1];
      bool const above_this = xk > key[i];
      key[i] = above_previous ? key[i - 1] : (above_this ? xk : key[i]);
      col[i] = above_previous ? col[i - 1] : (above_this ? xc : col[i]);
    }
    bool const above_first = xk > key[0];
    key[0] = above_first ? xk : key[0];
    col[0] = above_first ? xc : col[0];
    thr = threshold_of(max(key[L - 1], bound));
  }

  // Offers value v of column c (nothing when !valid); every lane of the warp calls it together. One
  // comparison and one vote when no lane has a candidate.
  __device__ __forceinline__ void offer(float v, int c, bool valid) {
    bool const wanted = valid && !(v <= thr);
    if (__any_sync(kFull, wanted)) {
      // Lanes that do not want v may still insert it when it beats their own last entry: harmless, their
      // list stays the first L of a subset of the lane's values that holds every wanted one.
      insert(valid ? key_of(v) : kEmpty, c);
      grew = true;
    }
  }

  // Raises the bound after insertions: the warp minimum of every lane's (rank + 1)-th key. Elements
  // offered later have larger columns than every entry, so a key equal to the bound cannot enter either.
  __device__ __forceinline__ void refresh() {
    constexpr int kRanks = L < 4 ? L : 4;
    if (!grew) return;
    grew = false;
    if (rank >= kRanks) return;
    // key[rank] as the minimum of key[0..rank] (descending): a dynamic index would move the list to
    // local memory.
    int own = key[0];
#pragma unroll
    for (int i = 1; i < kRanks; ++i) own = min(own, i <= rank ? key[i] : kNaNKey);
    bound = max(bound, __reduce_min_sync(kFull, own));
    thr = threshold_of(max(key[L - 1], bound));
  }
};

// Calls offer(value, column, valid) for the elements of x[0..cols) that belong to this warp, in
// increasing column order for each lane, and step() after each round (both with every lane of the warp).
// The row is split as a scalar head up to the first 16-byte boundary, a body of 16-byte vectors and a
// scalar tail; the warp takes vectors first - lane + lane + j * stride (a block-wide split passes its
// thread index and the block size; a single warp its lane and 32), Unroll loads in flight per lane, and
// the head and the tail when `edges` (head first, tail last, so each lane's columns increase).
template <typename T, int Unroll, typename Offer, typename Step>
__device__ __forceinline__ void for_each_element(const T* __restrict__ x, int cols, int lane, int first,
                                                 int stride, bool edges, Offer&& offer, Step&& step) {
  constexpr int V = 16 / static_cast<int>(sizeof(T));
  unsigned long long const addr = reinterpret_cast<unsigned long long>(x);
  int head = static_cast<int>(((16ull - (addr & 15ull)) & 15ull) / sizeof(T));
  if (head > cols) head = cols;
  int const vectors = (cols - head) / V;
  int const tail = head + vectors * V;
  if (edges) {  // fewer than V elements: one round
    bool const in_head = lane < head;
    offer(in_head ? to_float(x[lane]) : 0.0f, lane, in_head);
    step();
  }
  const T* __restrict__ body = x + head;
#pragma unroll 1
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
        for (int e = 0; e < V; ++e) v[u][e] = 0.0f;
      }
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      int const c = base + lane + u * stride;
#pragma unroll
      for (int e = 0; e < V; ++e) offer(v[u][e], head + c * V + e, c < vectors);
    }
    step();
  }
  if (edges) {  // fewer than V elements: one round
    int const c = tail + lane;
    bool const in_tail = c < cols;
    offer(in_tail ? to_float(x[c]) : 0.0f, c, in_tail);
    step();
  }
}

// k rounds of a warp arg-max over the lists' heads (the larger key, then the smaller column); the winner
// pops its head (a register shift). Lane r % 32 keeps round r's pair, and every 32 rounds the lanes
// base + lane <= r call emit(base + lane, key, column). Returns the number of rounds known exact: k, or
// r + 1 when round r < k - 1 took the last entry of a full list (an element that list dropped may come
// next); the rounds after it were not run and (last_key, last_col) is round r's pair. Until a full list
// is emptied, no element outside the lists can beat a head: a dropped element comes after its list's last
// entry, and one the bound rejected after k listed ones.
template <int L, typename Emit>
__device__ __forceinline__ int merge_lists(Lane<L>& st, int k, int lane, int& last_key, int& last_col,
                                           Emit&& emit) {
  bool const full = st.key[L - 1] != kEmpty;
  int taken = 0;
  int keep_key = kEmpty;
  int keep_col = kNoColumn;
  for (int r = 0; r < k; ++r) {
    int best = st.key[0];
    int best_col = st.col[0];
    warp_first(best, best_col);
    bool emptied = false;
    if (st.key[0] == best && st.col[0] == best_col) {
#pragma unroll
      for (int i = 0; i < L - 1; ++i) {
        st.key[i] = st.key[i + 1];
        st.col[i] = st.col[i + 1];
      }
      st.key[L - 1] = kEmpty;
      st.col[L - 1] = kNoColumn;
      emptied = full && ++taken == L;
    }
    if ((r & 31) == lane) {
      keep_key = best;
      keep_col = best_col;
    }
    bool const stop = __any_sync(kFull, emptied) && r < k - 1;
    if ((r & 31) == 31 || r == k - 1 || stop) {
      int const base = r & ~31;
      if (base + lane <= r) emit(base + lane, keep_key, keep_col);
    }
    if (stop) {
      last_key = best;
      last_col = best_col;
      return r + 1;
    }
  }
  return k;
}

// Rounds done..k-1 exactly, after merge_lists stopped early (rare: more than L of the first k in one
// lane): each round re-reads this warp's elements (the same split as the scan) and takes the first pair
// after (last_key, last_col); lane 0 calls emit(r, key, column). A warp whose elements run out emits kEmpty.
template <typename T, int Unroll, typename Emit>
__device__ __noinline__ void finish_rounds(const T* __restrict__ x, int cols, int k, int done, int last_key,
                                           int last_col, int lane, int first, int stride, bool edges,
                                           Emit emit) {
  for (int r = done; r < k; ++r) {
    int best = kEmpty;
    int best_col = kNoColumn;
    for_each_element<T, Unroll>(
        x, cols, lane, first, stride, edges,
        [&](float v, int c, bool valid) {
          int const key = key_of(v);
          if (valid && before(last_key, last_col, key, c) && before(key, c, best, best_col)) {
            best = key;
            best_col = c;
          }
        },
        [] {});
    warp_first(best, best_col);
    if (lane == 0) emit(r, best, best_col);
    last_key = best;
    last_col = best_col;
  }
}

// This warp's first k pairs of its elements, in order, through emit (see merge_lists and finish_rounds).
template <typename T, int L, int Unroll, typename Emit>
__device__ __forceinline__ void warp_topk(const T* __restrict__ x, int cols, int k, int lane, int first,
                                          int stride, bool edges, Emit emit) {
  Lane<L> st;
  st.init(k);
  for_each_element<T, Unroll>(
      x, cols, lane, first, stride, edges, [&](float v, int c, bool valid) { st.offer(v, c, valid); },
      [&] { st.refresh(); });
  int last_key = kEmpty;
  int last_col = kNoColumn;
  int const done = merge_lists<L>(st, k, lane, last_key, last_col, emit);
  if (done < k)
    finish_rounds<T, Unroll>(x, cols, k, done, last_key, last_col, lane, first, stride, edges, emit);
}
