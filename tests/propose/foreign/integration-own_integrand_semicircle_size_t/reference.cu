// Composite Simpson of sqrt(max(0, 1 - x^2)), one thread per integral: FP32 samples summed in double.
#include <cstddef>

__device__ float f(float x) {
  return sqrtf(fmaxf(0.0f, 1.0f - x * x));
}

__global__ void semicircle_area_kernel(const float* a, const float* b, float* result, size_t count,
                                       size_t intervals) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  float const h = (b[i] - a[i]) / static_cast<float>(intervals);
  double sum = 0.0;
  for (size_t j = 0; j <= intervals; ++j) {
    float const weight = (j == 0 || j == intervals) ? 1.0f : (j % 2 == 1 ? 4.0f : 2.0f);
    sum += weight * f(a[i] + static_cast<float>(j) * h);
  }
  result[i] = static_cast<float>(sum * (static_cast<double>(h) / 3.0));
}

void semicircle_area(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ result,
                     size_t count, size_t intervals) {
  if (count == 0 || intervals == 0) return;
  semicircle_area_kernel<<<static_cast<unsigned>((count + 127) / 128), 128>>>(a, b, result, count, intervals);
}
