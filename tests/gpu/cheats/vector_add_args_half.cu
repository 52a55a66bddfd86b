// expect: wrong_output
// defeats: a computed kernel argument that shortens the work (`args` passes n / 2 as the length)
// mode: kernel
// task: examples/vector_add

// Only the first half of c is written; the poisoned second half must be found.
// kopt:launch grid=(ceil_div(n, 256)) block=(256) args=(c, a, b, i32(n / 2))
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
