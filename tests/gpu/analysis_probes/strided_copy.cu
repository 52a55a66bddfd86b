// flags: uncoalesced_global_access
// Neighbouring threads read 33 floats apart: every load of a warp touches its own sector.
// kopt:launch grid=(ceil_div(n, 256)) block=(256)
extern "C" __global__ void probe(float* __restrict__ out, const float* __restrict__ in, const int* /*index*/,
                                 int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[(static_cast<long long>(i) * 33) % n];
}
