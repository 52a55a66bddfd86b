// The per-row kernel of the cross_entropy strategies of this folder (spliced into each by `// kopt:include`,
// docs/strategies.md, after cross_entropy_row.cuh): loss[r] for every row r, a group of threads per row.
extern "C" __global__ void __launch_bounds__(KOPT_MAX_THREADS)
    {{ENTRY}}(float* __restrict__ loss, const {{T}}* __restrict__ logits,
                        const {{I}}* __restrict__ labels, int N, int C) {
  using namespace kopt_rows;
  constexpr bool kMultiWarp = KOPT_GROUP != 32;
  __shared__ Scratch<KOPT_ROWS> scratch;
  Group const g = make_group<KOPT_GROUP, KOPT_ROWS>();
  int const row = static_cast<int>(blockIdx.x) * KOPT_ROWS + g.slot;
  bool const live = row < N;
  if (!kMultiWarp && !live) return;  // no block barriers when a row is one warp
  long long const offset = static_cast<long long>(live ? row : 0) * C;
  int const label = live ? row_label(labels[row], C) : 0;
  bool const aligned = kopt_strategy::aligned_to(logits, 16);
  cross_entropy_row<{{T}}, kMultiWarp, KOPT_ROWS, KOPT_UNROLL>(
      loss + (live ? row : 0), logits + offset, label, C, live, aligned, scratch, g);
}
