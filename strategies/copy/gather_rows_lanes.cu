// Strategy gather_rows_lanes, gather_rows family (kernel mode): an embedding lookup / row gather with int32
// or int64 indices (the index type I), out[i][d] = table[idx[i]][d] for i < n, d < dim
// (torch.nn.functional.embedding, index_select over dim 0 of a row-major table). A group of LANES lanes of one warp owns ROWS consecutive output rows:
// it reads their indices once, then copies the rows chunk by chunk with 128-bit loads and stores when a
// row is a whole number of 16-byte words and both matrices are 16-byte aligned (element by element
// otherwise, still coalesced), ROWS * UNROLL loads in flight per lane before any store. SPLIT blocks share
// a block's rows and take their column chunks in turn, so a small batch of long rows (a few thousand
// tokens of 4096 values) still fills 132 SMs. Bits are copied unchanged; no shared memory, no barrier;
// 64-bit offsets. The body is gather_rows.cuh.
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

// kopt:include gather_rows.cuh

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* out, const {{T}}* table, const {{I}}* idx, int n, int dim) {
  gather_rows::run<{{T}}, {{I}}>(out, table, idx, n, dim);
}
