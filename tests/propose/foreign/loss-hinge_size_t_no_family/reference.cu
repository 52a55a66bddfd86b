// *out = mean of max(0, 1 - pred * label): one block of 1024 threads, per-thread double sums, a fixed
// shared-memory tree, one division and one rounding.
#include <cstddef>

constexpr int kThreads = 1024;

__global__ void hinge_kernel(const float* pred, const float* label, float* out, size_t count) {
  __shared__ double partial[kThreads];
  double sum = 0.0;
  for (size_t i = threadIdx.x; i < count; i += blockDim.x) {
    double const margin = 1.0 - static_cast<double>(pred[i]) * static_cast<double>(label[i]);
    sum += margin > 0.0 ? margin : 0.0;
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = static_cast<float>(partial[0] / static_cast<double>(count));
}

extern "C" void hinge_loss(const float* pred, const float* label, float* out, size_t count) {
  hinge_kernel<<<1, kThreads>>>(pred, label, out, count);
}
