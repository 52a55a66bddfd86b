// 7-point Jacobi sweep on a cube with copied boundary: one thread per point, the six neighbours summed in
// float in the order x-1, x+1, y-1, y+1, z-1, z+1, times 1/6.
#include <cstddef>

__global__ void heat_step_kernel(float* next, const float* prev, size_t n) {
  size_t const x = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  size_t const y = static_cast<size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  size_t const z = blockIdx.z;
  if (x >= n || y >= n) return;
  size_t const plane = n * n;
  size_t const i = z * plane + y * n + x;
  if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1) {
    next[i] = prev[i];
    return;
  }
  float const sum = prev[i - 1] + prev[i + 1] + prev[i - n] + prev[i + n] + prev[i - plane] + prev[i + plane];
  next[i] = sum * (1.0f / 6.0f);
}

extern "C" void heat_step(float* next, const float* prev, size_t n) {
  if (n == 0) return;
  dim3 const block(32, 8, 1);
  dim3 const grid(static_cast<unsigned>((n + 31) / 32), static_cast<unsigned>((n + 7) / 8),
                  static_cast<unsigned>(n));
  heat_step_kernel<<<grid, block>>>(next, prev, n);
}
