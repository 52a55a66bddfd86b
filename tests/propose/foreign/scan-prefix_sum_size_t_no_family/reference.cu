// dst = inclusive prefix sum of src.
// Inclusive prefix sum computed as the suite's scan reference does: chunks of 1024 elements, (1) one
// thread per chunk sums its chunk, (2) one thread turns the chunk sums into exclusive offsets in order,
// (3) one thread per chunk rescans its chunk from its offset; every sum in double, each output rounded
// once.
#include "../common/scan_reference.cuh"

using scan_reference::inclusive_scan;

extern "C" void inclusive_prefix_sum(float* dst, const float* src, size_t count) {
  inclusive_scan(dst, src, static_cast<long long>(count));
}
