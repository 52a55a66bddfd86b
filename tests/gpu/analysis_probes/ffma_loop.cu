// expect: compute_bound
// Four independent FMA chains of 20000 steps per thread, one store at the end.
// kopt:launch grid=(132*32) block=(256)
extern "C" __global__ void probe(float* out, const float* /*in*/, const int* /*index*/, int /*n*/) {
  float a = threadIdx.x * 1e-3f, b = a + 1.0f, c = a + 2.0f, d = a + 3.0f;
  for (int it = 0; it < 20000; ++it) {
    a = fmaf(a, 0.9999f, 0.0001f);
    b = fmaf(b, 0.9999f, 0.0001f);
    c = fmaf(c, 0.9999f, 0.0001f);
    d = fmaf(d, 0.9999f, 0.0001f);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
}
