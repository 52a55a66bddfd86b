// result = mat^exponent: exponent - 1 products by mat, one thread per element, float accumulation, the
// running power in two float buffers allocated for the call.
#include <cuda_runtime.h>

__global__ void mat_mul_kernel(const float* x, const float* y, float* z, int size) {
  int const col = blockIdx.x * blockDim.x + threadIdx.x;
  int const row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= size || col >= size) return;
  float sum = 0.0f;
  for (int k = 0; k < size; ++k) sum += x[row * size + k] * y[k * size + col];
  z[row * size + col] = sum;
}

__global__ void identity_kernel(float* z, int size) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size * size) z[i] = i / size == i % size ? 1.0f : 0.0f;
}

extern "C" void mat_pow(const float* mat, int exponent, int size, float* result) {
  if (size <= 0) return;
  size_t const bytes = sizeof(float) * size * size;
  if (exponent <= 0) {
    identity_kernel<<<(size * size + 255) / 256, 256>>>(result, size);
    return;
  }
  float* cur = nullptr;
  float* tmp = nullptr;
  cudaMalloc(&cur, bytes);
  cudaMalloc(&tmp, bytes);
  cudaMemcpy(cur, mat, bytes, cudaMemcpyDeviceToDevice);
  dim3 const block(16, 16);
  dim3 const grid((size + 15) / 16, (size + 15) / 16);
  for (int i = 1; i < exponent; ++i) {
    mat_mul_kernel<<<grid, block>>>(cur, mat, tmp, size);
    float* t = cur;
    cur = tmp;
    tmp = t;
  }
  cudaMemcpy(result, cur, bytes, cudaMemcpyDeviceToDevice);
  cudaFree(cur);
  cudaFree(tmp);
}
