// Strategy cross_entropy_block_per_row:
// cross-entropy (cross_entropy family): loss[r] = log(sum(exp(x - max))) + max - x[label[r]] per row
// of an N x C matrix of logits.
// One block of THREADS threads per row: threads stride over the row with 16-byte accesses (4 floats or
// 8 bf16; element accesses when C is not a multiple or a buffer is unaligned), UNROLL accesses in flight
// per thread, reduce with warp shuffles and then across the block's warps through shared memory. The
// statistics take one pass (online max and rescaled sum for softmax-like rows, shifted sum and sum of
// squares for LayerNorm); rows that need an output pass re-read the row, mostly from L1/L2. Meant for
// wide rows (thousands to hundreds of thousands of columns) and few rows.
//
// kopt:knob THREADS = [64, 128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// At most 2048 accesses per block sweep (keeps 1024-thread blocks within their 64 registers per thread):
// kopt:constraint THREADS * UNROLL <= 2048
// kopt:launch grid=({{ARG3}}) block=(THREADS) kernel={{ENTRY}}

// Defaults, so that the file also compiles on its own.
#ifndef THREADS
#define THREADS 256
#endif
#ifndef UNROLL
#define UNROLL 2
#endif

// How the shared row code below is used by this strategy.
#define KOPT_GROUP THREADS
#define KOPT_ROWS 1
#define KOPT_ITEMS 0
#define KOPT_UNROLL UNROLL
#define KOPT_ONLINE 1
#define KOPT_MAX_THREADS THREADS
// kopt:include rows_common.cuh
// kopt:include online_softmax_rows.cuh
// kopt:include cross_entropy_row.cuh
// kopt:include cross_entropy_rows.cuh
