// expect: wrong_output
// defeats: a single non-negative input distribution (KernelBench feeds U[0,1), where relu(x) == x)
// mode: kernel
// task: tests/gpu/tasks/relu

// Copies the input: right for every non-negative input, wrong as soon as a trial draws negatives.
extern "C" __global__ void relu(float* out, const float* in, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
