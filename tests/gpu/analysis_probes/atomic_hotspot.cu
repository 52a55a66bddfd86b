// flags: sync_contention
// Every thread adds its element to one address.
// kopt:launch grid=(ceil_div(n / 16, 256)) block=(256)
extern "C" __global__ void probe(float* out, const float* in, const int* /*index*/, int n) {
  int const m = n / 16;
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) atomicAdd(out, in[i]);
}
