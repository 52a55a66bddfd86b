// y = inclusive prefix sum of x (BF16).
// Inclusive prefix sum computed as the suite's scan reference does: chunks of 1024 elements, (1) one
// thread per chunk sums its chunk, (2) one thread turns the chunk sums into exclusive offsets in order,
// (3) one thread per chunk rescans its chunk from its offset; every sum in double, each output rounded
// once.
#include "../common/scan_reference.cuh"

using scan_reference::inclusive_scan;

extern "C" void cumsum_bf16(const __nv_bfloat16* x, __nv_bfloat16* y, int64_t n) {
  inclusive_scan(y, x, static_cast<long long>(n));
}
