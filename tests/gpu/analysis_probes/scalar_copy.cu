// expect: memory_bound
// flags: unvectorized_access
// The same copy with 32-bit loads and stores.
// kopt:launch grid=(132*8) block=(256)
extern "C" __global__ void probe(float* __restrict__ out, const float* __restrict__ in, const int* /*index*/,
                                 int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i];
}
