// All-pairs softened gravity on arrays of x, y, z and masses, one thread per body, the sums in double.
__global__ void gravity_soa_kernel(const float* px, const float* py, const float* pz, const float* m,
                                   float* fx, float* fy, float* fz, int N, float soft) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  double ax = 0.0;
  double ay = 0.0;
  double az = 0.0;
  for (int j = 0; j < N; ++j) {
    float const dx = px[j] - px[i];
    float const dy = py[j] - py[i];
    float const dz = pz[j] - pz[i];
    float const r2 = dx * dx + dy * dy + dz * dz + soft;
    float const inv_r = 1.0f / sqrtf(r2);
    float const s = m[j] * inv_r * inv_r * inv_r;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
  }
  fx[i] = static_cast<float>(ax);
  fy[i] = static_cast<float>(ay);
  fz[i] = static_cast<float>(az);
}

extern "C" void gravity_soa(const float* px, const float* py, const float* pz, const float* m, float* fx,
                            float* fy, float* fz, int N, float soft) {
  if (N <= 0) return;
  gravity_soa_kernel<<<(N + 127) / 128, 128>>>(px, py, pz, m, fx, fy, fz, N, soft);
}
