// y = alpha * x as a C API writes it: the launcher checks its arguments and returns the status of its
// launch (cudaGetLastError(), which also clears it).
#include <cuda_runtime.h>

__global__ void scale_kernel(float* y, const float* x, float alpha, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i];
}

extern "C" cudaError_t scale_vector(const float* x, float* y, float alpha, int n) {
  if (n < 0) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  scale_kernel<<<(n + 255) / 256, 256>>>(y, x, alpha, n);
  return cudaGetLastError();
}
