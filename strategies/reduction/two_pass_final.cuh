// Pass 2 and the launch geometry of the two-pass reductions (spliced into the namespace of
// block_then_grid_two_pass and dot_block_then_grid_two_pass by `// kopt:include two_pass_final.cuh`,
// after their pass-1 kernel, which writes one partial per block into `partials[kMaxPartials]`, and after
// ../common/multiprocessors.cuh). Pass 2 is one block of kFinalThreads threads that combines the
// partials in a fixed order and rounds once to T, so the result is deterministic.

__global__ void __launch_bounds__(kFinalThreads) final_kernel(T* __restrict__ out, int count) {
  float acc = Op::identity();
  for (int i = static_cast<int>(threadIdx.x); i < count; i += kFinalThreads)
    acc = Op::combine(acc, partials[i]);
  float const total = block_combine<kFinalThreads>(acc);
  if (threadIdx.x == 0) *out = kopt_strategy::from_float<T>(total);
}

// Pass 1's grid for n >= 0 elements: enough blocks of BLOCK threads for UNROLL packs each, at most
// BLOCKS_PER_SM per SM and kMaxPartials, at least one.
unsigned pass_one_blocks(int n) {
  long long const per_block = static_cast<long long>(BLOCK) * UNROLL * kVec;
  long long blocks = (static_cast<long long>(n) + per_block - 1) / per_block;
  long long cap = static_cast<long long>(multiprocessors()) * BLOCKS_PER_SM;
  if (cap > kMaxPartials) cap = kMaxPartials;
  if (blocks > cap) blocks = cap;
  if (blocks < 1) blocks = 1;
  return static_cast<unsigned>(blocks);
}
