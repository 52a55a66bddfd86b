// Template of the strategies row_argmax_warp_per_row (row_argmax family) and row_argmin_warp_per_row
// (row_argmin family: the manifest's defines set ARGMIN = 1, the comparison reversed: the smallest value
// wins, a NaN still wins over every number, the first on ties), kernel mode. out[r] = the column of the
// largest in[r*cols + c] over c < cols, a row-major rows x cols matrix (greedy decoding over a vocabulary,
// torch.argmax(dim=-1) with 32-bit indices): the first such column on ties, NaN counting as the largest, as
// PyTorch. Each row belongs to LANES * WARPS threads: a group of LANES threads of one warp (WARPS 1, no
// shared memory and no barrier, BLOCK / LANES rows per block) or WARPS whole warps of a block (BLOCK / (32 *
// WARPS) rows per block, so that few rows still fill the GPU: 256 rows of a decoding batch are 256 warps
// with WARPS 1, two per SM). When the row starts on a 16-byte boundary and cols is a multiple of the pack
// width, thread i of the row reads 128-bit packs i, i + LANES * WARPS, ... (UNROLL independent loads in
// flight); otherwise element by element, still coalesced. A thread's candidates come in increasing column
// order, so a strict comparison keeps the first; threads are combined by warp shuffles that compare the
// value, then the column, and with WARPS > 1 the row's warps through shared memory. Every element is read
// once (PACKED BF16: and one round of UNROLL packs per thread a second time). row_arg_warp.cuh holds the
// body (ARGMIN picks the direction) and says how PACKED works.
//
// Knobs: LANES threads per row within a warp; BLOCK threads per block; UNROLL 128-bit loads in flight per
// thread; WARPS warps per row (> 1 only with LANES 32; 1: the kernel before 2026-12-06); PACKED 1 reduces
// BF16 packs as bf16x2 pairs (NaN-propagating max/min: under one instruction per element in all) and finds
// the first column of the row's best value afterwards, where the element fold takes about twelve
// instructions per element (0: the element fold, the code before 2026-12-06; no effect on FP32).
// Constraints: whole warps per row only with LANES 32, and a row's warps fit the block; UNROLL 128-bit
// loads per thread fit the 64 registers a 1024-thread block leaves.
// kopt:knob LANES = [8, 16, 32]
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob WARPS = [1, 2, 4, 8, 16, 32]
// kopt:knob PACKED = [1, 0] resources=none
// kopt:constraint (WARPS == 1 || LANES == 32) && 32 * WARPS <= BLOCK
// kopt:constraint BLOCK * UNROLL <= 4096
// kopt:launch grid=(max(1, ceil_div({{ARG2}}, BLOCK / (LANES * WARPS)))) block=(BLOCK) kernel={{ENTRY}}

#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef LANES
#define LANES 32
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef WARPS
#define WARPS 1
#endif
#ifndef PACKED
#define PACKED 1
#endif

namespace row_argext_warp_per_row {

using T = {{T}};

// kopt:include row_arg_warp.cuh

}  // namespace row_argext_warp_per_row

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{I}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  using namespace row_argext_warp_per_row;
  constexpr int kRowsPerBlock = BLOCK / kRowLanes;
  int const lane = static_cast<int>(threadIdx.x) % kRowLanes;  // the thread's place in its row
  long long const block_row = static_cast<long long>(blockIdx.x) * kRowsPerBlock;
  if constexpr (WARPS == 1) {
    long long const warp_row = block_row + (static_cast<int>(threadIdx.x) & ~31) / LANES;
    if (warp_row >= rows) return;  // a whole warp past the end; the others shuffle with all 32 lanes
  }
  long long const row = block_row + static_cast<int>(threadIdx.x) / kRowLanes;
  bool const live = row < rows;
#if ARGMIN
  Best b{INFINITY, 0};  // the worst value of the direction, for lanes past the last row
#else
  Best b{-INFINITY, 0};
#endif
  if constexpr (kPairs) {
    // Whole aligned BF16 packs (every row then starts on a 16-byte boundary): rounds reduced as bf16x2,
    // the row's best value, then each thread's first column holding it (row_arg_warp.cuh).
    if (cols > 0 && cols % kVec == 0 && kopt_strategy::aligned_to(in, 16u)) {
      T const* x = in + row * cols;
      int const packs = cols / kVec;
      Best mine{b.value, packs};
      if (live) mine = round_fold(x, packs, lane);
      float m = group_value(mine.value);
      if constexpr (WARPS > 1) {
        __shared__ float warp_values[kRowsPerBlock][WARPS];
        int const row_in_block = static_cast<int>(threadIdx.x) / kRowLanes;
        if (lane % 32 == 0) warp_values[row_in_block][lane / 32] = m;
        __syncthreads();
        m = warp_values[row_in_block][0];
#pragma unroll
        for (int w = 1; w < WARPS; ++w) m = better(m, warp_values[row_in_block][w]);
      }
      if (live) b = locate(x, packs, mine, m);
    } else if (live && cols > 0) {
      b = row_best(in + row * cols, cols, lane);
    }
  } else {
    if (live && cols > 0) b = row_best(in + row * cols, cols, lane);
  }
  b = group_best(b);
  if constexpr (WARPS > 1) {  // the row's warps through shared memory: warp w's best in slot w
    __shared__ float best_values[kRowsPerBlock][WARPS];
    __shared__ int best_columns[kRowsPerBlock][WARPS];
    int const row_in_block = static_cast<int>(threadIdx.x) / kRowLanes;
    if (lane % 32 == 0) {
      best_values[row_in_block][lane / 32] = b.value;
      best_columns[row_in_block][lane / 32] = b.column;
    }
    __syncthreads();
    if (lane == 0) {
#pragma unroll
      for (int w = 1; w < WARPS; ++w) {
        Best const other{best_values[row_in_block][w], best_columns[row_in_block][w]};
        if (beats(other, b)) b = other;
      }
    }
  }
  if (live && lane == 0) out[row] = static_cast<{{I}}>(b.column);
}
