// Strategy scatter_rows_lanes, scatter_rows family (kernel mode): a row scatter with distinct int32 or int64
// indices (the index type I), out[idx[i]][d] = src[i][d] for i < n, d < dim (torch.Tensor.index_copy_ over
// dim 0 of a row-major matrix); rows of out that no index names keep their values. gather_rows_lanes
// mirrored: a group of LANES lanes of one warp owns ROWS consecutive source rows: it reads their destination
// indices once, then moves the rows chunk by chunk with 128-bit loads and stores when a row is a whole number
// of 16-byte words and both matrices are 16-byte aligned (element by element otherwise, still coalesced),
// ROWS * UNROLL loads in flight per lane before any store. SPLIT blocks share a block's rows and take their
// column chunks in turn, so a small batch of long rows still fills 132 SMs. Bits are copied unchanged; no
// shared memory, no barrier; 64-bit offsets. The body is scatter_rows.cuh (shared with scatter_add_rows_lanes).
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
  kopt_scatter::run<{{T}}, {{I}}, kopt_scatter::Assign>(out, src, idx, n, dim);
}
