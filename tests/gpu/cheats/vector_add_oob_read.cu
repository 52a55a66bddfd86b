// expect: ok
// defeats: guard regions (they catch stray writes, not stray reads); only compute-sanitizer sees it
// mode: launcher
// task: examples/vector_add
// expect-with-sanitize: runtime_error

// An honest vector add whose first thread also reads 1 MiB past the end of a device allocation.
// The read lands in the unused rest of the allocation's last 2 MiB page, so it never faults and the
// output is right: without --sanitize the verdict is ok. compute-sanitizer memcheck tracks the
// requested size of every allocation and reports the read, so with --sanitize it is runtime_error.
// (Reading past a kopt-owned buffer instead could land in a neighbouring allocation, which memcheck
// cannot tell apart from a legal access, or in unmapped memory, which faults without the sanitizer.)
#include <cuda_runtime.h>

namespace {

constexpr size_t kScratchBytes = (size_t{2} << 20) + 256;  // 2 MiB + 256 B: the mapping rounds up to 4 MiB
constexpr size_t kReadOffset = kScratchBytes + (size_t{1} << 20);

__global__ void vector_add_kernel(float* c, const float* a, const float* b, int n, const char* scratch) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (i == 0) {
    // A volatile load is never optimised away, although its value is unused.
    asm volatile("{ .reg .f32 stray; ld.volatile.global.f32 stray, [%0]; }" : : "l"(scratch + kReadOffset));
  }
  c[i] = a[i] + b[i];
}

const char* scratch_buffer() {
  static const char* const buffer = [] {
    void* p = nullptr;
    return cudaMalloc(&p, kScratchBytes) == cudaSuccess ? static_cast<const char*>(p) : nullptr;
  }();
  return buffer;
}

}  // namespace

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  const char* scratch = scratch_buffer();
  if (n <= 0 || scratch == nullptr) return;
  vector_add_kernel<<<(n + 255) / 256, 256>>>(c, a, b, n, scratch);
}
