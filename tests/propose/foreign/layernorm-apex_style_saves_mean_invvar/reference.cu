// LayerNorm in Apex's argument order (cuda_layer_norm: output, mean, invvar, input, n1, n2, gamma, beta,
// epsilon): n1 rows of n2 values, the statistics kept for the backward pass. One block per row, FP32
// sums combined in shared memory, two passes over the row for the variance.
constexpr int kThreads = 256;

__device__ float block_sum(float value, float* shared) {
  shared[threadIdx.x] = value;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) shared[threadIdx.x] += shared[threadIdx.x + stride];
    __syncthreads();
  }
  float const total = shared[0];
  __syncthreads();
  return total;
}

__global__ void layer_norm_rows(float* output, float* mean, float* invvar, const float* input, int n2,
                                const float* gamma, const float* beta, float epsilon) {
  __shared__ float shared[kThreads];
  long long const offset = static_cast<long long>(blockIdx.x) * n2;
  const float* x = input + offset;
  float sum = 0.0f;
  for (int j = threadIdx.x; j < n2; j += kThreads) sum += x[j];
  float const mu = block_sum(sum, shared) / static_cast<float>(n2);
  float squares = 0.0f;
  for (int j = threadIdx.x; j < n2; j += kThreads) squares += (x[j] - mu) * (x[j] - mu);
  float const inv = rsqrtf(block_sum(squares, shared) / static_cast<float>(n2) + epsilon);
  for (int j = threadIdx.x; j < n2; j += kThreads)
    output[offset + j] = (x[j] - mu) * inv * gamma[j] + beta[j];
  if (threadIdx.x == 0) {
    mean[blockIdx.x] = mu;
    invvar[blockIdx.x] = inv;
  }
}

extern "C" void cuda_layer_norm(float* output, float* mean, float* invvar, const float* input, int n1, int n2,
                                const float* gamma, const float* beta, double epsilon) {
  if (n1 <= 0 || n2 <= 0) return;
  layer_norm_rows<<<n1, kThreads>>>(output, mean, invvar, input, n2, gamma, beta,
                                    static_cast<float>(epsilon));
}
