// expect: runtime_error
// defeats: a harness that shares its CUDA context with the candidate (an illegal address poisons it)
// mode: kernel
// task: examples/vector_add

// Computes the right sum, then one thread stores through a garbage pointer (address 64, in the
// never-mapped first page): the launch fails with an illegal-address error and the context is lost.
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  c[i] = a[i] + b[i];
  if (i == n / 2) *reinterpret_cast<volatile float*>(64ull) = c[i];
}
