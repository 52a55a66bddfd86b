// out = w_center * c + w_face * (six face neighbours), one thread per point, FP32 in the described order.
__global__ void apply7_kernel(float* out, const float* in, int nx, int ny, int nz, float w_center,
                              float w_face) {
  int const x = blockIdx.x * blockDim.x + threadIdx.x;
  int const y = blockIdx.y * blockDim.y + threadIdx.y;
  int const z = blockIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  long long const plane = static_cast<long long>(nx) * ny;
  long long const i = z * plane + static_cast<long long>(y) * nx + x;
  if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
    out[i] = in[i];
    return;
  }
  float const sum = in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - plane] + in[i + plane];
  out[i] = w_center * in[i] + w_face * sum;
}

extern "C" void apply7(float* out, const float* in, int nx, int ny, int nz, float w_center, float w_face) {
  if (nx <= 0 || ny <= 0 || nz <= 0) return;
  dim3 const block(32, 8, 1);
  dim3 const grid((nx + 31) / 32, (ny + 7) / 8, nz);
  apply7_kernel<<<grid, block>>>(out, in, nx, ny, nz, w_center, w_face);
}
