// expect: implausibly_fast
// defeats: trusting any measured time (the task's work model claims 1000x the bytes really moved)
// mode: kernel
// task: tests/gpu/tasks/inflated_work

// An honest one-thread-per-element vector add. Measured against a work model that claims 12000
// bytes per element, it beats the speed-of-light bound by ~1000x, so the timing must not be trusted.
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
