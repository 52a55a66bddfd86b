// expect: compile_error
// defeats: nothing; checks that a source the compiler rejects is reported as such, with diagnostics
// mode: kernel
// task: examples/vector_add

// A missing semicolon after the index computation.
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x
  if (i < n) c[i] = a[i] + b[i];
}
