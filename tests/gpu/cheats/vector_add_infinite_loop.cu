// expect: timeout
// defeats: waiting on the GPU without a deadline
// mode: kernel
// task: examples/vector_add

// Writes the right sum, then the first thread spins on a flag nobody ever sets.
__device__ volatile int release_flag = 0;

extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  c[i] = a[i] + b[i];
  if (i == 0) {
    while (release_flag == 0) {
    }
  }
}
