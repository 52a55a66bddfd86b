// All-pairs softened gravity with the caller's G, one thread per body, the sums in double.
__global__ void compute_accelerations_kernel(const float* positions, const float* masses,
                                             float* accelerations, int num_bodies, float G,
                                             float softening_sq) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= num_bodies) return;
  double ax = 0.0;
  double ay = 0.0;
  double az = 0.0;
  for (int j = 0; j < num_bodies; ++j) {
    float const dx = positions[3 * j] - positions[3 * i];
    float const dy = positions[3 * j + 1] - positions[3 * i + 1];
    float const dz = positions[3 * j + 2] - positions[3 * i + 2];
    float const r2 = dx * dx + dy * dy + dz * dz + softening_sq;
    float const inv_r = 1.0f / sqrtf(r2);
    double const s = static_cast<double>(G) * masses[j] * inv_r * inv_r * inv_r;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
  }
  accelerations[3 * i] = static_cast<float>(ax);
  accelerations[3 * i + 1] = static_cast<float>(ay);
  accelerations[3 * i + 2] = static_cast<float>(az);
}

extern "C" void compute_accelerations(const float* positions, const float* masses, float* accelerations,
                                      int num_bodies, float G, float softening_sq) {
  if (num_bodies <= 0) return;
  compute_accelerations_kernel<<<(num_bodies + 127) / 128, 128>>>(positions, masses, accelerations,
                                                                  num_bodies, G, softening_sq);
}
