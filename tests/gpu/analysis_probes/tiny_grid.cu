// expect: small_grid
// flags: tail_effect
// One block of 128 threads sums 2^20 floats: one SM of 132 works.
// kopt:launch grid=(1) block=(128)
extern "C" __global__ void probe(float* out, const float* in, const int* /*index*/, int /*n*/) {
  float acc = 0.0f;
  for (int i = threadIdx.x; i < (1 << 20); i += blockDim.x) acc += in[i];
  out[threadIdx.x] = acc;
}
