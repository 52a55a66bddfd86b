// 7-point Jacobi sweep over planes of a fixed 60 x 100 size, boundary copied: one thread per point, the
// six neighbours summed in float in the order x-1, x+1, y-1, y+1, z-1, z+1, times 1/6.
constexpr int kNx = 100;
constexpr int kNy = 60;

__global__ void sweep_slab_kernel(float* out, const float* in, int nz) {
  int const x = blockIdx.x * blockDim.x + threadIdx.x;
  int const y = blockIdx.y * blockDim.y + threadIdx.y;
  int const z = blockIdx.z;
  if (x >= kNx || y >= kNy) return;
  long long const i = (static_cast<long long>(z) * kNy + y) * kNx + x;
  if (x == 0 || y == 0 || z == 0 || x == kNx - 1 || y == kNy - 1 || z == nz - 1) {
    out[i] = in[i];
    return;
  }
  float const sum = in[i - 1] + in[i + 1] + in[i - kNx] + in[i + kNx] + in[i - kNx * kNy] + in[i + kNx * kNy];
  out[i] = sum * (1.0f / 6.0f);
}

extern "C" void sweep_slab(float* out, const float* in, int nz) {
  if (nz <= 0) return;
  dim3 const block(32, 4, 1);
  dim3 const grid((kNx + 31) / 32, (kNy + 3) / 4, nz);
  sweep_slab_kernel<<<grid, block>>>(out, in, nz);
}
