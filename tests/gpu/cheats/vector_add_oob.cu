// expect: out_of_bounds_write
// defeats: output comparison alone (every element of c is right; the damage is past its end)
// mode: kernel
// task: examples/vector_add

// Off by one: `i <= n` also writes c[n]. The grid always has a thread for i == n.
// kopt:launch grid=(ceil_div(n + 1, 256)) block=(256)
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) c[i] = a[i] + b[i];
}
