// y = einsum("bij,jk->bik", x, w): one thread per output, double accumulation, one rounding.
__global__ void contract_kernel(const float* x, const float* w, float* y, int batch, int i_dim, int j_dim,
                                int k_dim) {
  int const k = blockIdx.x * blockDim.x + threadIdx.x;
  long long const bi = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y;  // b * i_dim + i
  if (k >= k_dim || bi >= static_cast<long long>(batch) * i_dim) return;
  double sum = 0.0;
  for (int j = 0; j < j_dim; ++j)
    sum += static_cast<double>(x[bi * j_dim + j]) *
           static_cast<double>(w[static_cast<long long>(j) * k_dim + k]);
  y[bi * k_dim + k] = static_cast<float>(sum);
}

extern "C" void contract_bij_jk(const float* x, const float* w, float* y, int batch, int i_dim, int j_dim,
                                int k_dim) {
  long long const rows = static_cast<long long>(batch) * i_dim;
  if (rows <= 0 || k_dim <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid(static_cast<unsigned>((k_dim + 15) / 16), static_cast<unsigned>((rows + 15) / 16));
  contract_kernel<<<grid, block>>>(x, w, y, batch, i_dim, j_dim, k_dim);
}
