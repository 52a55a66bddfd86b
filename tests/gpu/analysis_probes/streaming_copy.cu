// expect: memory_bound dram
// flags: (none at high severity)
// The copy done right: 128-bit coalesced loads and stores, a grid-stride loop over 8 blocks per SM.
// kopt:launch grid=(132*8) block=(256)
extern "C" __global__ void probe(float* __restrict__ out, const float* __restrict__ in, const int* /*index*/,
                                 int n) {
  int const n4 = n / 4;
  auto* out4 = reinterpret_cast<float4*>(out);
  auto const* in4 = reinterpret_cast<const float4*>(in);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) out4[i] = in4[i];
}
