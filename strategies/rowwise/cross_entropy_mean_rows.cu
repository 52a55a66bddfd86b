// Strategy cross_entropy_mean_rows, cross_entropy_mean family (kernel mode): *loss = the mean over the rows r
// whose label is not -100 (PyTorch's default ignore_index) of log(sum(exp(x - max))) + max - x[label[r]], an
// N x C matrix of logits: torch.nn.functional.cross_entropy(logits, targets) with its defaults. No counted row
// gives NaN (0 / 0), as PyTorch; a label outside [0, C) gives NaN.
// A persistent grid of min(ceil(N / ROWS), GRID) blocks of ROWS groups of GROUP threads: block b takes the row
// groups b, b + gridDim.x, ... and each group one row of them at a time with cross_entropy_row
// (cross_entropy_row.cuh: 16-byte accesses, UNROLL in flight per thread, one online max/sum pass, warp
// shuffles and, with GROUP > 32, shared memory), its first thread adding the row's loss to its running sum
// and count. The block adds its groups' sums in slot order and stores them with its count in __device__
// arrays, fences and draws a ticket from a self-resetting counter (atomicInc); the last block's first warp
// adds the blocks' sums in a fixed order (lane l blocks l, l + 32, ..., then a shuffle tree) and writes the
// mean rounded once to T. One kernel, deterministic (every order is fixed by the grid), no float atomics, no
// pre-initialised output.
//
// Knobs: GROUP threads per row (32: a warp; more: whole warps of a block, for vocabulary-wide rows); ROWS rows
// per block at once; UNROLL accesses in flight per thread; GRID the most blocks (multiples of the H200's 132
// SMs; a block walks several row groups when there are more).
// kopt:knob GROUP = [32, 64, 128, 256, 512, 1024]
// kopt:knob ROWS = [1, 2, 4, 8]
// kopt:knob UNROLL = [1, 2, 4]
// kopt:knob GRID = [132, 264, 528, 1056] resources=none
// At most 1024 threads per block and 2048 accesses per block sweep (1024-thread blocks within their 64
// registers per thread):
// kopt:constraint GROUP * ROWS <= 1024 && GROUP * UNROLL <= 2048
// kopt:launch grid=(max(1, min(ceil_div({{ARG3}}, ROWS), GRID))) block=(GROUP * ROWS) kernel={{ENTRY}}

// Defaults, so that the file also compiles on its own.
#ifndef GROUP
#define GROUP 256
#endif
#ifndef ROWS
#define ROWS 1
#endif
#ifndef UNROLL
#define UNROLL 2
#endif
#ifndef GRID
#define GRID 528
#endif

// How the shared row code below is used by this strategy.
#define KOPT_GROUP GROUP
#define KOPT_ROWS ROWS
#define KOPT_ITEMS 0
#define KOPT_UNROLL UNROLL
#define KOPT_ONLINE 1
#define KOPT_MAX_THREADS (GROUP * ROWS)
// kopt:include rows_common.cuh
// kopt:include online_softmax_rows.cuh
// kopt:include cross_entropy_row.cuh

namespace cross_entropy_mean_rows {

// Each block's sum of its rows' losses and how many rows it counted; the self-resetting ticket.
__device__ float block_sums[GRID];
__device__ unsigned int block_counts[GRID];
__device__ unsigned int ticket;

constexpr long long kIgnoreIndex = -100;  // PyTorch's default ignore_index: the row is not counted

}  // namespace cross_entropy_mean_rows

extern "C" __global__ void __launch_bounds__(KOPT_MAX_THREADS)
    {{ENTRY}}({{T}}* __restrict__ loss, const {{T}}* __restrict__ logits, const {{I}}* __restrict__ labels,
              int N, int C) {
  using namespace kopt_rows;
  using namespace cross_entropy_mean_rows;
  constexpr bool kMultiWarp = KOPT_GROUP != 32;
  __shared__ Scratch<KOPT_ROWS> scratch;
  __shared__ float slot_sums[KOPT_ROWS];
  __shared__ unsigned int slot_counts[KOPT_ROWS];
  __shared__ bool last_block;
  Group const g = make_group<KOPT_GROUP, KOPT_ROWS>();
  bool const aligned = kopt_strategy::aligned_to(logits, 16);
  float sum = 0.0f;        // this group's counted rows (kept by its first thread)
  unsigned int count = 0;
  int const row_groups = (N + KOPT_ROWS - 1) / KOPT_ROWS;
  // The same trip count for every thread of the block: the groups' reductions may synchronise it.
  for (int group = static_cast<int>(blockIdx.x); group < row_groups; group += static_cast<int>(gridDim.x)) {
    int const row = group * KOPT_ROWS + g.slot;
    long long const label = row < N ? static_cast<long long>(labels[row]) : kIgnoreIndex;
    bool const counted = label != kIgnoreIndex;
    float row_loss = 0.0f;
    cross_entropy_row<{{T}}, kMultiWarp, KOPT_ROWS, KOPT_UNROLL>(
        &row_loss, logits + static_cast<long long>(counted ? row : 0) * C,
        counted ? row_label(labels[row], C) : 0, C, counted, aligned, scratch, g);
    if (counted && g.lane == 0) {
      sum += row_loss;
      ++count;
    }
  }
  if (g.lane == 0) {
    slot_sums[g.slot] = sum;
    slot_counts[g.slot] = count;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float block_sum = 0.0f;
    unsigned int block_count = 0;
#pragma unroll
    for (int slot = 0; slot < KOPT_ROWS; ++slot) {
      block_sum += slot_sums[slot];
      block_count += slot_counts[slot];
    }
    block_sums[blockIdx.x] = block_sum;
    block_counts[blockIdx.x] = block_count;
    __threadfence();  // the partials are visible device-wide before the ticket is drawn
    last_block = atomicInc(&ticket, gridDim.x - 1u) == gridDim.x - 1u;
  }
  __syncthreads();
  if (!last_block || threadIdx.x >= 32) return;
  __threadfence();
  float total = 0.0f;
  unsigned int counted_rows = 0;
  for (unsigned int b = threadIdx.x; b < gridDim.x; b += 32) {
    total += __ldcg(&block_sums[b]);
    counted_rows += __ldcg(&block_counts[b]);
  }
  total = kopt_strategy::warp_sum(total);
  counted_rows = __reduce_add_sync(0xffffffffu, counted_rows);  // sm_80+, as the strategy's min_arch
  if (threadIdx.x == 0) loss[0] = from_float<{{T}}>(total / static_cast<float>(counted_rows));
}
