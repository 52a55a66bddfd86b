// expect: load_error
// defeats: nothing; checks that a launcher library that compiles but cannot be loaded is rejected before any call
// mode: launcher
// task: examples/vector_add

// The launcher is right, but it calls a host function that nothing defines. A shared object may
// link with undefined symbols, so nvcc succeeds; loading it with RTLD_NOW fails.
#include <cuda_runtime.h>

extern "C" void kopt_cheat_helper_defined_nowhere(int n);

namespace {

__global__ void vector_add_kernel(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

}  // namespace

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  if (n <= 0) return;
  kopt_cheat_helper_defined_nowhere(n);
  vector_add_kernel<<<(n + 255) / 256, 256>>>(c, a, b, n);
}
