// All-pairs softened gravity on BF16 (x, y, z, m) quadruples, one thread per body: FP32 math on the widened
// values, the three sums in double, one rounding to BF16.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void gravity_xyzm_kernel(__nv_bfloat16* a, const __nv_bfloat16* xyzm, size_t count, float soft2) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  float const xi = __bfloat162float(xyzm[4 * i]);
  float const yi = __bfloat162float(xyzm[4 * i + 1]);
  float const zi = __bfloat162float(xyzm[4 * i + 2]);
  double ax = 0.0;
  double ay = 0.0;
  double az = 0.0;
  for (size_t j = 0; j < count; ++j) {
    float const dx = __bfloat162float(xyzm[4 * j]) - xi;
    float const dy = __bfloat162float(xyzm[4 * j + 1]) - yi;
    float const dz = __bfloat162float(xyzm[4 * j + 2]) - zi;
    float const r2 = dx * dx + dy * dy + dz * dz + soft2;
    float const inv_r = 1.0f / sqrtf(r2);
    float const s = __bfloat162float(xyzm[4 * j + 3]) * inv_r * inv_r * inv_r;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
  }
  a[3 * i] = __float2bfloat16_rn(static_cast<float>(ax));
  a[3 * i + 1] = __float2bfloat16_rn(static_cast<float>(ay));
  a[3 * i + 2] = __float2bfloat16_rn(static_cast<float>(az));
}

extern "C" void gravity_xyzm_bf16(__nv_bfloat16* a, const __nv_bfloat16* xyzm, size_t count, float soft2) {
  if (count == 0) return;
  gravity_xyzm_kernel<<<static_cast<unsigned>((count + 127) / 128), 128>>>(a, xyzm, count, soft2);
}
