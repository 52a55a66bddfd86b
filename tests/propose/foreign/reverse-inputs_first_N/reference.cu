// output = input reversed: one thread per element.
__global__ void array_reverse_kernel(const float* input, float* output, int N) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) output[i] = input[N - 1 - i];
}

extern "C" void array_reverse(const float* input, float* output, int N) {
  if (N <= 0) return;
  array_reverse_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
