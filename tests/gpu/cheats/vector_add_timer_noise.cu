// expect: nondeterministic
// defeats: comparison with the reference alone (each run stays inside the task's tolerance)
// mode: kernel
// task: examples/vector_add

// Scales each result by 1 +/- 7e-7 depending on bit 10 of the global nanosecond timer when the
// thread runs. The task allows a relative error of 1e-6 (atol 0), so every single run passes the
// reference comparison, but two runs on the same inputs differ by 1.4e-6 relative wherever the bit
// changed: only running the candidate twice can catch it.
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  float const sign = ((now >> 10) & 1ull) ? 1.0f : -1.0f;
  c[i] = (a[i] + b[i]) * (1.0f + sign * 7.0e-7f);
}
