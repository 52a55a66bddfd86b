// Template of the strategies row_argmax_warp_per_row (row_argmax family) and row_argmin_warp_per_row
// (row_argmin family: the manifest's defines set ARGMIN = 1, the comparison reversed: the smallest value
// wins, a NaN still wins over every number, the first on ties), kernel mode. out[r] = the column of the
// largest in[r*cols + c] over c < cols, a row-major rows x cols matrix (greedy decoding over a vocabulary,
// torch.argmax(dim=-1) with 32-bit indices): the first such column on ties, NaN counting as the largest, as
// PyTorch. Each row belongs to a group of LANES threads of one warp, BLOCK / LANES rows per block, no shared
// memory and no barrier: when the row starts on a 16-byte boundary and cols is a multiple of the pack width,
// lanes read 128-bit packs p = lane, lane + LANES, ... (UNROLL independent loads in flight); otherwise
// element by element, still coalesced. A lane's candidates come in increasing column order, so a strict
// comparison keeps the first; lanes are combined by warp shuffles that compare the value, then the column.
// Every element is read once. row_arg_warp.cuh holds the body (ARGMIN picks the direction).
//
// Knobs: LANES threads per row; BLOCK threads per block; UNROLL 128-bit loads in flight per thread.
// kopt:knob LANES = [8, 16, 32]
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:launch grid=(max(1, ceil_div({{ARG2}}, BLOCK / LANES))) block=(BLOCK) kernel={{ENTRY}}

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

namespace row_argext_warp_per_row {

using T = {{T}};

// kopt:include row_arg_warp.cuh

}  // namespace row_argext_warp_per_row

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}(int* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  using namespace row_argext_warp_per_row;
  constexpr int kRowsPerBlock = BLOCK / LANES;
  int const lane = static_cast<int>(threadIdx.x) % LANES;
  long long const block_row = static_cast<long long>(blockIdx.x) * kRowsPerBlock;
  long long const warp_row = block_row + (static_cast<int>(threadIdx.x) & ~31) / LANES;
  if (warp_row >= rows) return;  // a whole warp past the end; the others shuffle with all 32 lanes
  long long const row = block_row + static_cast<int>(threadIdx.x) / LANES;
  bool const live = row < rows;
#if ARGMIN
  Best b{INFINITY, 0};  // the worst value of the direction, for lanes past the last row
#else
  Best b{-INFINITY, 0};
#endif
  if (live && cols > 0) b = row_best(in + row * cols, cols, lane);
  b = group_best(b);
  if (live && lane == 0) out[row] = b.column;
}
