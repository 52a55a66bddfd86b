// difference[i] = minuend[i] - subtrahend[i], one float subtraction rounded once.
#include <cstdint>

__global__ void subtract_kernel(int64_t count, const float* minuend, const float* subtrahend,
                                float* difference) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) difference[i] = minuend[i] - subtrahend[i];
}

extern "C" void subtract(int64_t count, const float* minuend, const float* subtrahend, float* difference) {
  if (count <= 0) return;
  subtract_kernel<<<static_cast<unsigned>((count + 255) / 256), 256>>>(count, minuend, subtrahend,
                                                                       difference);
}
