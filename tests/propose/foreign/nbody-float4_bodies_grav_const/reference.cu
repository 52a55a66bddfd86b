// All-pairs softened gravity on float4 bodies (mass in w) with the caller's G, one thread per body, the sums
// in double.
__global__ void body_accel_g_kernel(const float4* bodies, float3* accel, int n, float softeningSquared,
                                    float gravConst) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 const bi = bodies[i];
  double ax = 0.0;
  double ay = 0.0;
  double az = 0.0;
  for (int j = 0; j < n; ++j) {
    float4 const bj = bodies[j];
    float const dx = bj.x - bi.x;
    float const dy = bj.y - bi.y;
    float const dz = bj.z - bi.z;
    float const r2 = dx * dx + dy * dy + dz * dz + softeningSquared;
    float const inv_r = 1.0f / sqrtf(r2);
    float const s = bj.w * inv_r * inv_r * inv_r;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
  }
  double const g = gravConst;
  accel[i] = make_float3(static_cast<float>(g * ax), static_cast<float>(g * ay), static_cast<float>(g * az));
}

extern "C" void body_accel_g(const float4* bodies, float3* accel, int n, float softeningSquared,
                             float gravConst) {
  if (n <= 0) return;
  body_accel_g_kernel<<<(n + 127) / 128, 128>>>(bodies, accel, n, softeningSquared, gravConst);
}
