// All-pairs softened gravity on float3 bodies, one thread per body, the sums in double.
__global__ void gravity_float3_kernel(float3* a, const float3* p, const float* m, float soft2, int count) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  float3 const pi = p[i];
  double ax = 0.0;
  double ay = 0.0;
  double az = 0.0;
  for (int j = 0; j < count; ++j) {
    float const dx = p[j].x - pi.x;
    float const dy = p[j].y - pi.y;
    float const dz = p[j].z - pi.z;
    float const r2 = dx * dx + dy * dy + dz * dz + soft2;
    float const inv_r = 1.0f / sqrtf(r2);
    float const s = m[j] * inv_r * inv_r * inv_r;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
  }
  a[i] = make_float3(static_cast<float>(ax), static_cast<float>(ay), static_cast<float>(az));
}

extern "C" void gravity_float3(float3* a, const float3* p, const float* m, float soft2, int count) {
  if (count <= 0) return;
  gravity_float3_kernel<<<(count + 127) / 128, 128>>>(a, p, m, soft2, count);
}
