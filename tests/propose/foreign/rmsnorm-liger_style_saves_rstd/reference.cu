// RMSNorm forward as Liger-Kernel's Triton kernel computes it, written in CUDA: Y, X, W, then the FP32
// per-row RSTD kept for the backward pass, n_rows x n_cols, eps. One block per row.
constexpr int kThreads = 256;

__global__ void rms_norm_rows(float* Y, const float* X, const float* W, float* RSTD, int n_cols, float eps) {
  __shared__ float shared[kThreads];
  long long const row = static_cast<long long>(blockIdx.x) * n_cols;
  float squares = 0.0f;
  for (int j = threadIdx.x; j < n_cols; j += kThreads) squares += X[row + j] * X[row + j];
  shared[threadIdx.x] = squares;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) shared[threadIdx.x] += shared[threadIdx.x + stride];
    __syncthreads();
  }
  float const rstd = rsqrtf(shared[0] / static_cast<float>(n_cols) + eps);
  for (int j = threadIdx.x; j < n_cols; j += kThreads) Y[row + j] = X[row + j] * rstd * W[j];
  if (threadIdx.x == 0) RSTD[blockIdx.x] = rstd;
}

extern "C" void rms_norm_forward(float* Y, const float* X, const float* W, float* RSTD, int n_rows,
                                 int n_cols, float eps) {
  if (n_rows <= 0 || n_cols <= 0) return;
  rms_norm_rows<<<n_rows, kThreads>>>(Y, X, W, RSTD, n_cols, eps);
}
