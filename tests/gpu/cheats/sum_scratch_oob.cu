// expect: out_of_bounds_write
// defeats: output comparison alone, on a task with a workspace (role = "scratch", never compared)
// mode: launcher
// task: tests/propose/foreign/reduction-two_pass_caller_workspace

// A correct sum that keeps one float too many in the caller's workspace: partial[1024] is past its end.
constexpr int kThreads = 256;
constexpr int kSlots = 1024;  // the task's workspace length

__global__ void partial_sums(const float* in, float* partial, int n) {
  __shared__ float shared[kThreads];
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += in[i];
  shared[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) shared[threadIdx.x] += shared[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = shared[0];
}

__global__ void sum_partials(float* partial, float* out, int count) {
  if (threadIdx.x != 0) return;
  float sum = 0.0f;
  for (int i = 0; i < count; ++i) sum += partial[i];
  *out = sum;
  partial[kSlots] = sum;  // one past the end
}

extern "C" void sum_two_pass(const float* in, float* partial, float* out, int n) {
  int blocks = (n + kThreads - 1) / kThreads;
  if (blocks > kSlots) blocks = kSlots;
  if (blocks < 1) blocks = 1;
  partial_sums<<<blocks, kThreads>>>(in, partial, n);
  sum_partials<<<1, 1>>>(partial, out, blocks);
}
