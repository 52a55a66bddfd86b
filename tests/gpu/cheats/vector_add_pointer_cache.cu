// expect: wrong_output
// defeats: verifying only before timing, on buffers whose inputs never change
// mode: launcher
// task: examples/vector_add

// A result cache keyed on addresses instead of contents: once a set of buffers has been seen 8 times,
// it assumes their inputs are unchanged and stops launching. kopt runs each size case 2 x 3 times on
// its buffers before timing (fewer than 8), so the cache only kicks in while timed; only the
// verification after timing (fresh inputs in the same buffers, outputs poisoned) can see it.
#include <cuda_runtime.h>

#include <map>
#include <tuple>

namespace {

__global__ void vector_add_kernel(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

constexpr int kTrustAfter = 8;
std::map<std::tuple<float*, const float*, const float*, int>, int> calls_seen;

}  // namespace

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  if (n <= 0) return;
  if (++calls_seen[{c, a, b, n}] >= kTrustAfter) return;  // "cached": reuse what an earlier call wrote
  vector_add_kernel<<<(n + 255) / 256, 256>>>(c, a, b, n);
}
