// One explicit heat step, one thread per point, FP32 in the order the description gives.
__global__ void heat_step_kernel(const float* T_old, float* T_new, int nx, int ny, float alpha) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  int const j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nx || j >= ny) return;
  long long const k = static_cast<long long>(j) * nx + i;
  if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
    T_new[k] = T_old[k];
    return;
  }
  float const c = T_old[k];
  float const lap = T_old[k - 1] + T_old[k + 1] + T_old[k - nx] + T_old[k + nx];
  T_new[k] = c + alpha * (lap - 4.0f * c);
}

void heat_step(const float* T_old, float* T_new, int nx, int ny, float alpha) {
  if (nx <= 0 || ny <= 0) return;
  dim3 const block(32, 8);
  dim3 const grid((nx + 31) / 32, (ny + 7) / 8);
  heat_step_kernel<<<grid, block>>>(T_old, T_new, nx, ny, alpha);
}
