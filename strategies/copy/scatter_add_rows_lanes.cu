// Strategy scatter_add_rows_lanes, scatter_add_rows family (kernel mode): a row scatter-add with int32 or
// int64 indices (the index type I), out[idx[i]][d] += src[i][d] for i < n, d < dim (torch.Tensor.index_add_
// over dim 0, the weight gradient of an embedding); an index may repeat, its rows add up; rows no index names
// keep their values. The scatter_rows_lanes kernel with atomic adds for stores: a group of LANES lanes of one
// warp owns ROWS consecutive source rows, reads their destination indices once, then loads the rows chunk by
// chunk with 128-bit loads (ROWS * UNROLL in flight per lane) and adds each 16-byte word with one vector
// atomic on sm_90 and later (4 FP32 or 8 BF16 values per instruction; one atomic per float or BF16 pair
// before sm_90), element by element when a row is not a whole number of 16-byte words or a matrix is not
// 16-byte aligned. SPLIT blocks share a block's rows and take their column chunks in turn. The order of the
// adds to a repeated row is not fixed: FP32 sums differ between runs in the last bits, and a BF16 value is
// rounded after every add. No shared memory, no barrier; 64-bit offsets. The body is scatter_rows.cuh.
//
// Knobs: LANES lanes per row; BLOCK threads per block; ROWS rows per group in flight; UNROLL words per
// lane and row in flight; SPLIT blocks per row block (column parts).
// kopt:knob LANES = [8, 16, 32]
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob ROWS = [1, 2, 4]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob SPLIT = [1, 2, 4, 8, 16] resources=none
// At most 16 words (64 registers) in flight per lane:
// kopt:constraint ROWS * UNROLL <= 16
// kopt:launch grid=(max(1, ceil_div({{ARG3}}, (BLOCK / LANES) * ROWS) * SPLIT)) block=(BLOCK) kernel={{ENTRY}}

#ifndef LANES
#define LANES 32
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ROWS
#define ROWS 2
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef SPLIT
#define SPLIT 4
#endif

// kopt:include scatter_rows.cuh

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* out, const {{T}}* src, const {{I}}* idx, int n, int dim) {
  kopt_scatter::run<{{T}}, {{I}}, kopt_scatter::Accumulate<{{T}}>>(out, src, idx, n, dim);
}
