// expect: wrong_output
// defeats: a workspace the caller hands in (role = "scratch"), used to keep the answer between calls
// mode: launcher
// task: tests/propose/foreign/reduction-two_pass_caller_workspace

// The two-pass sum, plus a cache in the caller's workspace: after computing, it leaves the answer and a
// marker in the workspace's last two floats; a call that finds the marker skips the work. kopt poisons
// the workspace when a candidate's evaluation starts, not between its calls, so the cache serves every
// timed call, and the verification after timing (fresh inputs in the same buffers, the workspace as the
// candidate left it) gets the stale answer.
constexpr int kThreads = 256;
constexpr int kSlots = 1024;            // the task's workspace length
constexpr int kMaxBlocks = kSlots - 2;  // partial sums go below the answer and the marker
constexpr unsigned kMarker = 0x600DCAFEu;

__device__ bool cached(const float* partial) {
  return __float_as_uint(partial[kSlots - 1]) == kMarker;
}

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
  if (cached(partial)) return;
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += in[i];
  float const total = block_sum(sum);
  if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

__global__ void sum_partials(float* partial, float* out, int count) {
  if (cached(partial)) {
    if (threadIdx.x == 0) *out = partial[kSlots - 2];
    return;
  }
  float sum = 0.0f;
  for (int i = threadIdx.x; i < count; i += blockDim.x) sum += partial[i];
  float const total = block_sum(sum);
  if (threadIdx.x == 0) {
    *out = total;
    partial[kSlots - 2] = total;
    partial[kSlots - 1] = __uint_as_float(kMarker);
  }
}

extern "C" void sum_two_pass(const float* in, float* partial, float* out, int n) {
  int blocks = (n + kThreads - 1) / kThreads;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  if (blocks < 1) blocks = 1;
  partial_sums<<<blocks, kThreads>>>(in, partial, n);
  sum_partials<<<1, kThreads>>>(partial, out, blocks);
}
