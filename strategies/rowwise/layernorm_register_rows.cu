// Strategy layernorm_register_rows:
// LayerNorm (layernorm family): y = (x - mean) / sqrt(var + eps) * gamma + beta per row of an
// N x C matrix (biased variance).
// Register-resident rows: a row is read from global memory once into registers, ITEMS values per
// thread, and every later pass (statistics, output) works on the registers. The group of threads per row
// is sized from the row length: 32 * ceil_div(C, 32 * ITEMS) threads (whole warps, at most 1024 / ROWS),
// and ROWS rows share a block. Values are laid out access j of thread t at element (j * group + t) * VEC
// (VEC = 16 bytes, or 8 when ITEMS is not a multiple of it), so the loads are coalesced; warps combine
// through shuffles and shared memory. A row too long for the group's registers (a size the constraint
// below did not see) is streamed instead, so any C is correct.
//
// kopt:knob ITEMS = [4, 8, 12, 16, 20, 24, 28]
// kopt:knob ROWS = [1, 2, 4, 8]
// Several rows per block only when every row of every size fits the registers of its share of the block:
// kopt:constraint ROWS == 1 || ROWS * 32 * ceil_div({{ARG5}}, 32 * ITEMS) <= 1024
// kopt:launch grid=(ceil_div({{ARG4}}, ROWS)) block=(ROWS * min(1024 / ROWS, 32 * ceil_div({{ARG5}}, 32 * ITEMS))) kernel={{ENTRY}}

// Defaults, so that the file also compiles on its own.
#ifndef ITEMS
#define ITEMS 16
#endif
#ifndef ROWS
#define ROWS 1
#endif

// How the shared row code below is used by this strategy.
#define KOPT_GROUP 0
#define KOPT_ROWS ROWS
#define KOPT_ITEMS ITEMS
#define KOPT_UNROLL 1
#define KOPT_ONLINE 1
#define KOPT_MAX_THREADS 1024
// kopt:include rows_common.cuh
// kopt:include layernorm_rows.cuh
