// CSR SpMM, one thread per element of out: the row's nonzeros times the matching rows of dense, summed in
// double, one rounding.
__global__ void graph_spmm_kernel(const int* crow_indices, const int* col_indices, const float* values,
                                  const float* dense, float* out, int n_rows, int width) {
  long long const e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= static_cast<long long>(n_rows) * width) return;
  int const row = static_cast<int>(e / width);
  int const col = static_cast<int>(e % width);
  double sum = 0.0;
  for (int p = crow_indices[row]; p < crow_indices[row + 1]; ++p)
    sum += static_cast<double>(values[p]) * dense[static_cast<long long>(col_indices[p]) * width + col];
  out[e] = static_cast<float>(sum);
}

extern "C" void graph_spmm(const int* crow_indices, const int* col_indices, const float* values,
                           const float* dense, float* out, int n_rows, int width) {
  long long const total = static_cast<long long>(n_rows) * width;
  if (total <= 0) return;
  graph_spmm_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(crow_indices, col_indices, values,
                                                                         dense, out, n_rows, width);
}
