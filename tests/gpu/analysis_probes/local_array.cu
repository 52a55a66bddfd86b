// flags: register_spills
// A 1 KiB per-thread array indexed with data from memory lives in local memory. The index is reduced
// modulo 251, not masked with & 255: a mask lets the compiler load one byte of each int, and ncu then
// rightly reports 1 useful byte in every 4 of the sectors moved (uncoalesced_global_access).
// kopt:launch grid=(ceil_div(n / 64, 256)) block=(256)
extern "C" __global__ void probe(float* out, const float* /*in*/, const int* index, int n) {
  int const m = n / 64;
  float local[256];
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 256; ++k) local[k] = static_cast<float>(k + i);
  float acc = 0.0f;
  for (int k = 0; k < 64; ++k) acc += local[static_cast<unsigned>(index[(i + k) % m]) % 251u];
  if (i < m) out[i] = acc;
}
