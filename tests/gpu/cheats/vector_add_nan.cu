// expect: wrong_output
// defeats: comparisons that let NaN through (NaN compares false with every bound: `!(err > tol)` passes)
// mode: kernel
// task: examples/vector_add

// Correct everywhere except one NaN in the middle of the output.
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  c[i] = (i == n / 2) ? __int_as_float(0x7fc00000) : a[i] + b[i];
}
