// sum(in[0..n)) in two passes, as often written: the first kernel leaves one partial sum per block in a
// workspace the caller allocates, the second adds the partial sums up.
constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

__device__ float block_sum(float value) {
  __shared__ float shared[kThreads];
  shared[threadIdx.x] = value;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) shared[threadIdx.x] += shared[threadIdx.x + stride];
    __syncthreads();
  }
  return shared[0];
}

__global__ void partial_sums(const float* in, float* partial, int n) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += in[i];
  float const total = block_sum(sum);
  if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

__global__ void sum_partials(const float* partial, float* out, int count) {
  float sum = 0.0f;
  for (int i = threadIdx.x; i < count; i += blockDim.x) sum += partial[i];
  float const total = block_sum(sum);
  if (threadIdx.x == 0) *out = total;
}

extern "C" void sum_two_pass(const float* in, float* partial, float* out, int n) {
  int blocks = (n + kThreads - 1) / kThreads;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  if (blocks < 1) blocks = 1;
  partial_sums<<<blocks, kThreads>>>(in, partial, n);
  sum_partials<<<1, kThreads>>>(partial, out, blocks);
}
