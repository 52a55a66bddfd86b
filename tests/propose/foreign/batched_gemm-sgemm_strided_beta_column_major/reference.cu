// C[i] = alpha * A[i] * B[i] + beta * C[i], column-major FP32: one thread per element of C, blockIdx.z = i,
// double accumulation, one rounding.
__global__ void sgemm_strided_batched_kernel(int m, int n, int k, float alpha, const float* A, const float* B,
                                             float beta, float* C) {
  int const r = blockIdx.x * blockDim.x + threadIdx.x;
  int const c = blockIdx.y * blockDim.y + threadIdx.y;
  long long const i = blockIdx.z;
  if (r >= m || c >= n) return;
  const float* a = A + i * m * k;
  const float* b = B + i * k * n;
  double sum = 0.0;
  for (int p = 0; p < k; ++p)
    sum += static_cast<double>(a[r + static_cast<long long>(p) * m]) *
           static_cast<double>(b[p + static_cast<long long>(c) * k]);
  float* out = C + i * m * n + r + static_cast<long long>(c) * m;
  *out = static_cast<float>(alpha * sum + static_cast<double>(beta) * *out);
}

extern "C" void sgemm_strided_batched(int m, int n, int k, float alpha, const float* A, const float* B,
                                      float beta, float* C, int batch_count) {
  if (m <= 0 || n <= 0 || batch_count <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((m + 15) / 16, (n + 15) / 16, batch_count);
  sgemm_strided_batched_kernel<<<grid, block>>>(m, n, k, alpha, A, B, beta, C);
}
