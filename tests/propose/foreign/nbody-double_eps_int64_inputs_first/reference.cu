// All-pairs softened gravity, one thread per body: the softening rounded to float once, each interaction
// in FP32 (1 / sqrtf), the three sums in double, one rounding.
#include <cstdint>

__global__ void accelerations_kernel(const float* positions, const float* masses, float* accelerations,
                                     int64_t num_bodies, float eps2) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= num_bodies) return;
  float const xi = positions[3 * i];
  float const yi = positions[3 * i + 1];
  float const zi = positions[3 * i + 2];
  double ax = 0.0;
  double ay = 0.0;
  double az = 0.0;
  for (int64_t j = 0; j < num_bodies; ++j) {
    float const dx = positions[3 * j] - xi;
    float const dy = positions[3 * j + 1] - yi;
    float const dz = positions[3 * j + 2] - zi;
    float const r2 = dx * dx + dy * dy + dz * dz + eps2;
    float const inv_r = 1.0f / sqrtf(r2);
    float const s = masses[j] * inv_r * inv_r * inv_r;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
  }
  accelerations[3 * i] = static_cast<float>(ax);
  accelerations[3 * i + 1] = static_cast<float>(ay);
  accelerations[3 * i + 2] = static_cast<float>(az);
}

extern "C" void compute_accelerations(const float* positions, const float* masses, float* accelerations,
                                      int64_t num_bodies, double eps_squared) {
  if (num_bodies <= 0) return;
  accelerations_kernel<<<static_cast<unsigned>((num_bodies + 127) / 128), 128>>>(
      positions, masses, accelerations, num_bodies, static_cast<float>(eps_squared));
}
