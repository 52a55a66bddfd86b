// *loss = mean of squared differences: one block of 1024 threads, per-thread double sums, a fixed
// shared-memory tree, one division and one rounding.
constexpr int kThreads = 1024;

__global__ void mse_kernel(const float* predictions, const float* targets, float* loss, int n) {
  __shared__ double partial[kThreads];
  double sum = 0.0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    double const d = static_cast<double>(predictions[i]) - static_cast<double>(targets[i]);
    sum += d * d;
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *loss = static_cast<float>(partial[0] / n);
}

extern "C" void mse_loss_forward(const float* predictions, const float* targets, float* loss, int n) {
  mse_kernel<<<1, kThreads>>>(predictions, targets, loss, n);
}
