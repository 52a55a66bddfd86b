// out = in^power: power - 1 products by in, one thread per element, float accumulation and float
// intermediates (grow-only buffers), the result rounded once to BF16.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void widen_kernel(float* y, const __nv_bfloat16* x, size_t count) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) y[i] = __bfloat162float(x[i]);
}

__global__ void times_in_kernel(float* next, const float* cur, const __nv_bfloat16* in, size_t n) {
  size_t const col = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  size_t const row = static_cast<size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  for (size_t k = 0; k < n; ++k) sum += cur[row * n + k] * __bfloat162float(in[k * n + col]);
  next[row * n + col] = sum;
}

__global__ void narrow_kernel(__nv_bfloat16* out, const float* cur, size_t count, bool identity, size_t n) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = __float2bfloat16(identity ? (i / n == i % n ? 1.0f : 0.0f) : cur[i]);
}

extern "C" void matrix_power_bf16(__nv_bfloat16* out, const __nv_bfloat16* in, size_t n, int power) {
  static float* buffer = nullptr;
  static size_t capacity = 0;
  size_t const count = n * n;
  if (count == 0) return;
  if (2 * count > capacity) {
    cudaFree(buffer);
    cudaMalloc(&buffer, 2 * count * sizeof(float));
    capacity = 2 * count;
  }
  float* cur = buffer;
  float* next = buffer + count;
  unsigned const flat = static_cast<unsigned>((count + 255) / 256);
  widen_kernel<<<flat, 256>>>(cur, in, count);
  dim3 const block(16, 16);
  dim3 const grid(static_cast<unsigned>((n + 15) / 16), static_cast<unsigned>((n + 15) / 16));
  for (int i = 1; i < power; ++i) {
    times_in_kernel<<<grid, block>>>(next, cur, in, n);
    float* t = cur;
    cur = next;
    next = t;
  }
  narrow_kernel<<<flat, 256>>>(out, cur, count, power <= 0, n);
}
