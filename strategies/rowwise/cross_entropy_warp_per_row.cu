// Strategy cross_entropy_warp_per_row:
// cross-entropy (cross_entropy family): loss[r] = log(sum(exp(x - max))) + max - x[label[r]] per row
// of an N x C matrix of logits.
// One warp per row, ROWS rows (warps) per block, no shared memory and no block barrier: lanes stride
// over the row with 16-byte accesses (4 floats or 8 bf16; element accesses when C is not a multiple or a
// buffer is unaligned), UNROLL accesses in flight per lane, and combine their partial results with warp
// shuffles. The statistics take one pass (online max and rescaled sum for softmax-like rows, shifted
// sum and sum of squares for LayerNorm); rows that need an output pass re-read the row, mostly from L1/L2.
//
// kopt:knob ROWS = [1, 2, 4, 8, 16]
// kopt:knob UNROLL = [1, 2, 3, 4, 6, 8]
// An unrolled sweep of the warp (32 lanes x UNROLL accesses of at least 4 elements) fits in every row:
// kopt:constraint 128 * UNROLL <= {{ARG4}}
// kopt:launch grid=(ceil_div({{ARG3}}, ROWS)) block=(32 * ROWS) kernel={{ENTRY}}

// Defaults, so that the file also compiles on its own.
#ifndef ROWS
#define ROWS 4
#endif
#ifndef UNROLL
#define UNROLL 2
#endif

// How the shared row code below is used by this strategy.
#define KOPT_GROUP 32
#define KOPT_ROWS ROWS
#define KOPT_ITEMS 0
#define KOPT_UNROLL UNROLL
#define KOPT_ONLINE 1
#define KOPT_MAX_THREADS (32 * ROWS)
// kopt:include rows_common.cuh
// kopt:include online_softmax_rows.cuh
// kopt:include cross_entropy_row.cuh
// kopt:include cross_entropy_rows.cuh
