// expect: ok
// defeats: nothing; checks that a kernel whose parameters are not the launcher's (reordered, a wider size, a constant) is launched through `kopt:launch args` and verifies
// mode: kernel
// task: examples/vector_add

// The task's launcher is vector_add(float* c, const float* a, const float* b, int n); this kernel takes
// the inputs first, the length as a 64-bit integer and a scale it divides out again.
// kopt:launch grid=(ceil_div(n, 256)) block=(256) kernel=add_scaled args=(a, b, c, i64(n), f32(4.0))
extern "C" __global__ void add_scaled(const float* a, const float* b, float* c, long long n, float s) {
  long long const i = blockIdx.x * 256LL + threadIdx.x;
  if (i < n) c[i] = (s * a[i] + s * b[i]) / s;
}
