// dst[:, :n] = block (m x n, dense), dst's rows ld apart: one thread per element.
__global__ void write_block_kernel(float* dst, int ld, const float* block, int m, int n) {
  long long const k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= static_cast<long long>(m) * n) return;
  long long const i = k / n;
  long long const j = k % n;
  dst[i * ld + j] = block[k];
}

extern "C" void write_block(float* dst, int ld, const float* block, int m, int n) {
  if (m <= 0 || n <= 0) return;
  long long const count = static_cast<long long>(m) * n;
  write_block_kernel<<<static_cast<unsigned>((count + 255) / 256), 256>>>(dst, ld, block, m, n);
}
