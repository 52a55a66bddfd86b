// *out += a . b: a block-wide sum per block in shared memory, then one atomicAdd of it into *out.
constexpr int kThreads = 256;

__global__ void dot_accumulate_kernel(const float* a, const float* b, float* out, int n) {
  __shared__ float partial[kThreads];
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += a[i] * b[i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

extern "C" void dot_accumulate(const float* a, const float* b, float* out, int n) {
  if (n <= 0) return;
  int const blocks = (n + kThreads - 1) / kThreads < 256 ? (n + kThreads - 1) / kThreads : 256;
  dot_accumulate_kernel<<<blocks, kThreads>>>(a, b, out, n);
}
