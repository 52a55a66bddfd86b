// All-pairs softened gravity on BF16 bodies, one thread per body: FP32 math on the widened values, the
// three sums in double, one rounding to BF16.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void accel_bf16_kernel(__nv_bfloat16* accel, const __nv_bfloat16* xyz, const __nv_bfloat16* masses,
                                  float softening2, size_t bodies) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= bodies) return;
  float const xi = __bfloat162float(xyz[3 * i]);
  float const yi = __bfloat162float(xyz[3 * i + 1]);
  float const zi = __bfloat162float(xyz[3 * i + 2]);
  double ax = 0.0;
  double ay = 0.0;
  double az = 0.0;
  for (size_t j = 0; j < bodies; ++j) {
    float const dx = __bfloat162float(xyz[3 * j]) - xi;
    float const dy = __bfloat162float(xyz[3 * j + 1]) - yi;
    float const dz = __bfloat162float(xyz[3 * j + 2]) - zi;
    float const r2 = dx * dx + dy * dy + dz * dz + softening2;
    float const inv_r = 1.0f / sqrtf(r2);
    float const s = __bfloat162float(masses[j]) * inv_r * inv_r * inv_r;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
  }
  accel[3 * i] = __float2bfloat16_rn(static_cast<float>(ax));
  accel[3 * i + 1] = __float2bfloat16_rn(static_cast<float>(ay));
  accel[3 * i + 2] = __float2bfloat16_rn(static_cast<float>(az));
}

extern "C" void accel_bf16(__nv_bfloat16* accel, const __nv_bfloat16* xyz, const __nv_bfloat16* masses,
                           float softening2, size_t bodies) {
  if (bodies == 0) return;
  accel_bf16_kernel<<<static_cast<unsigned>((bodies + 127) / 128), 128>>>(accel, xyz, masses, softening2,
                                                                          bodies);
}
