// One explicit 3D diffusion step on BF16, one thread per point, FP32 math in the described order.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void diffuse3d_bf16_kernel(__nv_bfloat16* u_next, const __nv_bfloat16* u, float lambda, int64_t nz,
                                      int64_t ny, int64_t nx) {
  int64_t const x = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t const y = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  int64_t const z = blockIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  int64_t const plane = nx * ny;
  int64_t const i = z * plane + y * nx + x;
  if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
    u_next[i] = u[i];
    return;
  }
  float const c = __bfloat162float(u[i]);
  float const sum = __bfloat162float(u[i - 1]) + __bfloat162float(u[i + 1]) + __bfloat162float(u[i - nx]) +
                    __bfloat162float(u[i + nx]) + __bfloat162float(u[i - plane]) +
                    __bfloat162float(u[i + plane]);
  u_next[i] = __float2bfloat16_rn(c + lambda * (sum - 6.0f * c));
}

extern "C" void diffuse3d_bf16(__nv_bfloat16* u_next, const __nv_bfloat16* u, float lambda, int64_t nz,
                               int64_t ny, int64_t nx) {
  if (nx <= 0 || ny <= 0 || nz <= 0) return;
  dim3 const block(32, 8, 1);
  dim3 const grid(static_cast<unsigned>((nx + 31) / 32), static_cast<unsigned>((ny + 7) / 8),
                  static_cast<unsigned>(nz));
  diffuse3d_bf16_kernel<<<grid, block>>>(u_next, u, lambda, nz, ny, nx);
}
