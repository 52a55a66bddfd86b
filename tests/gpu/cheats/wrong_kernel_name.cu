// expect: load_error
// defeats: nothing; checks that a library without the task's entry symbol is rejected after compiling
// mode: launcher
// task: examples/vector_add

// Compiles and links, but the launcher is called vector_add_launcher, not vector_add.
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
