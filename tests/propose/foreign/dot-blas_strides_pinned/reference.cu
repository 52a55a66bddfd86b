// *res = sum_i xs[i*stridex] * ys[i*stridey]: one block of 1024 threads, per-thread double sums, a fixed
// shared-memory tree, one rounding (the suite's dot reference, with BLAS strides).
constexpr int kThreads = 1024;

__global__ void blas_dot_kernel(int len, const float* xs, int stridex, const float* ys, int stridey,
                                float* res) {
  __shared__ double partial[kThreads];
  double sum = 0.0;
  for (long long i = threadIdx.x; i < len; i += blockDim.x)
    sum += static_cast<double>(xs[i * stridex]) * static_cast<double>(ys[i * stridey]);
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *res = static_cast<float>(partial[0]);
}

extern "C" void blas_dot(int len, const float* xs, int stridex, const float* ys, int stridey, float* res) {
  blas_dot_kernel<<<1, kThreads>>>(len < 0 ? 0 : len, xs, stridex, ys, stridey, res);
}
