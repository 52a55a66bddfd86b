// flags: shared_bank_conflicts
// Each thread of a warp reads a different row of a 32x32 shared tile in the same column: 32-way conflicts.
// kopt:launch grid=(132*8) block=(256)
extern "C" __global__ void probe(float* out, const float* /*in*/, const int* /*index*/, int /*n*/) {
  __shared__ float tile[32 * 32];
  int const t = threadIdx.x;
  for (int k = t; k < 32 * 32; k += blockDim.x) tile[k] = static_cast<float>(k);
  __syncthreads();
  float acc = 0.0f;
  for (int it = 0; it < 4096; ++it) acc += tile[(t % 32) * 32 + (it % 32)];
  out[blockIdx.x * blockDim.x + t] = acc;
}
