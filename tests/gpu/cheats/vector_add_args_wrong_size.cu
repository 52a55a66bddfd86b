// expect: load_error
// defeats: nothing; checks that `kopt:launch args` cannot hide a kernel whose parameter sizes differ from its arguments (a 64-bit length given as i32)
// mode: kernel
// task: examples/vector_add

// kopt:launch grid=(ceil_div(n, 256)) block=(256) args=(c, a, b, i32(n))
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, long long n) {
  long long const i = blockIdx.x * 256LL + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
