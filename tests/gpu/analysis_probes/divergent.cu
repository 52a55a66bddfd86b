// flags: warp_divergence
// Even and odd lanes of every warp run different 256-step loops.
// kopt:launch grid=(ceil_div(n / 16, 256)) block=(256)
extern "C" __global__ void probe(float* out, const float* in, const int* /*index*/, int n) {
  int const m = n / 16;
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  float x = in[i];
  if (threadIdx.x % 2 == 0) {
    for (int it = 0; it < 256; ++it) x = x * 1.0001f + 0.5f;
  } else {
    for (int it = 0; it < 256; ++it) x = x * 0.9999f - 0.25f;
  }
  out[i] = x;
}
