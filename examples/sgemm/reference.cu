// Reference for examples/sgemm: C = A * B, row-major, one thread per element of C, each running
// the whole K loop out of global memory. Naive on purpose but obviously correct.

__global__ void sgemm_reference_kernel(float* C, const float* A, const float* B, int M, int N, int K) {
  int const col = blockIdx.x * blockDim.x + threadIdx.x;
  int const row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k)
    sum += A[static_cast<long long>(row) * K + k] * B[static_cast<long long>(k) * N + col];
  C[static_cast<long long>(row) * N + col] = sum;
}

extern "C" void sgemm(float* C, const float* A, const float* B, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  sgemm_reference_kernel<<<grid, block>>>(C, A, B, M, N, K);
}
