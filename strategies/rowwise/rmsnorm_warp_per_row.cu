// Strategy rmsnorm_warp_per_row:
// RMSNorm (rmsnorm family): y = x / sqrt(mean(x^2) + eps) * weight per row of an N x C matrix.
// One warp per row, ROWS rows (warps) per block, no shared memory and no block barrier: lanes stride
// over the row with 16-byte accesses (4 floats or 8 bf16; element accesses when C is not a multiple or a
// buffer is unaligned), UNROLL accesses in flight per lane, and combine their partial results with warp
// shuffles. The statistics take one pass (online max and rescaled sum for softmax-like rows, shifted
// sum and sum of squares for LayerNorm); rows that need an output pass re-read the row, mostly from L1/L2.
// ITEMS > 0 keeps the row in registers instead, ITEMS elements per lane as raw 16-byte packs (a BF16 row of
// 4096 is 64 registers a lane): the row is read from DRAM once, with no second pass through L1/L2, and the
// statistics are the exact two-pass ones over the registers; a row longer than 32 * ITEMS is streamed.
// Without block barriers, a warp's whole row is in flight at once, which hides the latency a BF16 row
// (half the bytes per access of an FP32 one) otherwise exposes.
//
// kopt:knob ROWS = [1, 2, 4, 8, 16]
// kopt:knob UNROLL = [1, 2, 3, 4, 6, 8]
// kopt:knob ITEMS = [0, 32, 64, 128]
// UNROLL applies to streamed rows only:
// kopt:constraint ITEMS == 0 || UNROLL == 1
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
#ifndef ITEMS
#define ITEMS 0
#endif

// How the shared row code below is used by this strategy.
#define KOPT_GROUP 32
#define KOPT_ROWS ROWS
#define KOPT_ITEMS ITEMS
#define KOPT_PACKED 1
#define KOPT_UNROLL UNROLL
#define KOPT_ONLINE 1
#define KOPT_MAX_THREADS (32 * ROWS)
// kopt:include rows_common.cuh
// kopt:include rmsnorm_rows.cuh
