// expect: launch_error
// defeats: ignoring the launch's own error (cudaGetLastError) and verifying stale output
// mode: kernel
// task: examples/vector_add

// Asks for 2048 threads per block; CUDA allows at most 1024, so the launch itself is refused.
// kopt:launch grid=(ceil_div(n, 2048)) block=(2048)
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
