// Clamp with double bounds, compared in float: one thread per element.
__global__ void clamp_values_kernel(float lo, float hi, const float* src, float* dst, int count) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) dst[i] = fminf(fmaxf(src[i], lo), hi);
}

extern "C" void clamp_values(double lo, double hi, const float* src, float* dst, int count) {
  if (count <= 0) return;
  clamp_values_kernel<<<(count + 255) / 256, 256>>>(static_cast<float>(lo), static_cast<float>(hi), src, dst,
                                                    count);
}
