// y = x^k: k - 1 products by x, one thread per element, float accumulation and float intermediates
// (buffers allocated for the call), the result rounded once to BF16; k <= 0 gives the identity.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

__global__ void start_kernel(float* r, const __nv_bfloat16* x, int64_t dim, bool identity) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < dim * dim) r[i] = identity ? (i / dim == i % dim ? 1.0f : 0.0f) : __bfloat162float(x[i]);
}

__global__ void times_x_kernel(float* next, const float* r, const __nv_bfloat16* x, int64_t dim) {
  int64_t const col = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t const row = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (row >= dim || col >= dim) return;
  float sum = 0.0f;
  for (int64_t j = 0; j < dim; ++j) sum += r[row * dim + j] * __bfloat162float(x[j * dim + col]);
  next[row * dim + col] = sum;
}

__global__ void round_kernel(__nv_bfloat16* y, const float* r, int64_t count) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) y[i] = __float2bfloat16(r[i]);
}

extern "C" void linalg_matrix_power_bf16(const __nv_bfloat16* x, __nv_bfloat16* y, int64_t dim, int64_t k) {
  int64_t const count = dim * dim;
  if (count <= 0) return;
  float* r = nullptr;
  float* next = nullptr;
  cudaMalloc(&r, count * sizeof(float));
  cudaMalloc(&next, count * sizeof(float));
  unsigned const flat = static_cast<unsigned>((count + 255) / 256);
  start_kernel<<<flat, 256>>>(r, x, dim, k <= 0);
  dim3 const block(16, 16);
  dim3 const grid(static_cast<unsigned>((dim + 15) / 16), static_cast<unsigned>((dim + 15) / 16));
  for (int64_t i = 1; i < k; ++i) {
    times_x_kernel<<<grid, block>>>(next, r, x, dim);
    float* t = r;
    r = next;
    next = t;
  }
  round_kernel<<<flat, 256>>>(y, r, count);
  cudaFree(r);
  cudaFree(next);
}
