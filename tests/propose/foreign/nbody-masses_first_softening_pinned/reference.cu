// All-pairs softened gravity, one thread per body straight from global memory: each interaction in FP32
// (1 / sqrtf), the three sums in double, one rounding.
constexpr float kSoftening2 = 0.0025f;  // eps = 0.05

__global__ void gravity_kernel(const float* m, const float* r, float* a, int count) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  float const xi = r[3 * i];
  float const yi = r[3 * i + 1];
  float const zi = r[3 * i + 2];
  double ax = 0.0;
  double ay = 0.0;
  double az = 0.0;
  for (int j = 0; j < count; ++j) {
    float const dx = r[3 * j] - xi;
    float const dy = r[3 * j + 1] - yi;
    float const dz = r[3 * j + 2] - zi;
    float const d2 = dx * dx + dy * dy + dz * dz + kSoftening2;
    float const inv_d = 1.0f / sqrtf(d2);
    float const s = m[j] * inv_d * inv_d * inv_d;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
  }
  a[3 * i] = static_cast<float>(ax);
  a[3 * i + 1] = static_cast<float>(ay);
  a[3 * i + 2] = static_cast<float>(az);
}

extern "C" void gravity(const float* m, const float* r, float* a, int count) {
  if (count <= 0) return;
  gravity_kernel<<<(count + 127) / 128, 128>>>(m, r, a, count);
}
