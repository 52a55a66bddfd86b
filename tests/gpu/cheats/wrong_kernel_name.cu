// expect: compile_error
// defeats: nothing; checks that a launcher file without the task's entry point is rejected with a clear message
// mode: launcher
// task: examples/vector_add

// Valid CUDA, but the launcher is called vector_add_launcher, not vector_add. kopt appends a
// trampoline that calls `vector_add` and static_asserts its signature, so the missing entry point is
// reported at compile time ("identifier vector_add is undefined"), not when the library is loaded.
#include <cuda_runtime.h>

namespace {

__global__ void vector_add_kernel(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

}  // namespace

extern "C" void vector_add_launcher(float* c, const float* a, const float* b, int n) {
  if (n > 0) vector_add_kernel<<<(n + 255) / 256, 256>>>(c, a, b, n);
}
