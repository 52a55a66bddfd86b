// All-pairs softened gravity on BF16 arrays of x, y, z and masses with the caller's G, one thread per body,
// FP32 math on the widened values, the sums in double, each output rounded once.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void gravity_soa_bf16_kernel(const __nv_bfloat16* x, const __nv_bfloat16* y,
                                        const __nv_bfloat16* z, const __nv_bfloat16* m, __nv_bfloat16* ax,
                                        __nv_bfloat16* ay, __nv_bfloat16* az, int64_t n, float G,
                                        float eps2) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float const xi = __bfloat162float(x[i]);
  float const yi = __bfloat162float(y[i]);
  float const zi = __bfloat162float(z[i]);
  double sx = 0.0;
  double sy = 0.0;
  double sz = 0.0;
  for (int64_t j = 0; j < n; ++j) {
    float const dx = __bfloat162float(x[j]) - xi;
    float const dy = __bfloat162float(y[j]) - yi;
    float const dz = __bfloat162float(z[j]) - zi;
    float const r2 = dx * dx + dy * dy + dz * dz + eps2;
    float const inv_r = 1.0f / sqrtf(r2);
    float const s = __bfloat162float(m[j]) * inv_r * inv_r * inv_r;
    sx += s * dx;
    sy += s * dy;
    sz += s * dz;
  }
  double const g = G;
  ax[i] = __float2bfloat16_rn(static_cast<float>(g * sx));
  ay[i] = __float2bfloat16_rn(static_cast<float>(g * sy));
  az[i] = __float2bfloat16_rn(static_cast<float>(g * sz));
}

extern "C" void gravity_soa_bf16(const __nv_bfloat16* x, const __nv_bfloat16* y, const __nv_bfloat16* z,
                                 const __nv_bfloat16* m, __nv_bfloat16* ax, __nv_bfloat16* ay,
                                 __nv_bfloat16* az, int64_t n, float G, float eps2) {
  if (n <= 0) return;
  gravity_soa_bf16_kernel<<<static_cast<unsigned>((n + 127) / 128), 128>>>(x, y, z, m, ax, ay, az, n, G,
                                                                           eps2);
}
