// *pi = 4 * hits / n: one block of 256 threads counts the hits (integers, exact), thread 0 divides.
constexpr int kThreads = 256;

__global__ void estimate_pi_kernel(const float* xs, const float* ys, float* pi, int n) {
  __shared__ unsigned long long hits[kThreads];
  unsigned long long mine = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) mine += xs[i] * xs[i] + ys[i] * ys[i] <= 1.0f ? 1 : 0;
  hits[threadIdx.x] = mine;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) hits[threadIdx.x] += hits[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *pi = static_cast<float>(4.0 * static_cast<double>(hits[0]) / n);
}

extern "C" void estimate_pi(const float* xs, const float* ys, float* pi, int n) {
  estimate_pi_kernel<<<1, kThreads>>>(xs, ys, pi, n);
}
