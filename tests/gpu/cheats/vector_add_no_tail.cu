// expect: wrong_output
// defeats: testing only sizes that are multiples of the block size
// mode: kernel
// task: examples/vector_add

// Handles n rounded down to a multiple of 256 and drops the rest: exact on 2^20 and 2^26, but the
// last 67 elements of the odd size (1000003) are never written.
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (n / 256) * 256) c[i] = a[i] + b[i];
}
