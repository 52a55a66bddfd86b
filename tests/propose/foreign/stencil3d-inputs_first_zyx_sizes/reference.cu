// 7-point Jacobi sweep with copied boundary: one thread per point, the six neighbours summed in float
// in the order x-1, x+1, y-1, y+1, z-1, z+1, times 1/6.
__global__ void jacobi3d_kernel(const float* u, float* u_new, int nz, int ny, int nx) {
  int const x = blockIdx.x * blockDim.x + threadIdx.x;
  int const y = blockIdx.y * blockDim.y + threadIdx.y;
  int const z = blockIdx.z;
  if (x >= nx || y >= ny) return;
  long long const plane = static_cast<long long>(ny) * nx;
  long long const i = z * plane + static_cast<long long>(y) * nx + x;
  if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
    u_new[i] = u[i];
    return;
  }
  float const sum = u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx] + u[i - plane] + u[i + plane];
  u_new[i] = sum * (1.0f / 6.0f);
}

extern "C" void jacobi3d(const float* u, float* u_new, int nz, int ny, int nx) {
  if (nz <= 0 || ny <= 0 || nx <= 0) return;
  dim3 const block(32, 4, 1);
  dim3 const grid((nx + 31) / 32, (ny + 3) / 4, nz);
  jacobi3d_kernel<<<grid, block>>>(u, u_new, nz, ny, nx);
}
