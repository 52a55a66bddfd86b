// dst = src reversed: one thread per element.
#include <cstddef>

__global__ void flip_kernel(const float* src, float* dst, size_t len) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < len) dst[i] = src[len - 1 - i];
}

extern "C" void flip(const float* src, float* dst, size_t len) {
  if (len == 0) return;
  flip_kernel<<<static_cast<unsigned>((len + 255) / 256), 256>>>(src, dst, len);
}
