// One thread per output of 256-point transforms: double twiddles from the exact index j*k mod 256,
// double sums.
#include <cstdint>

constexpr int kPoints = 256;

__global__ void fft256_kernel(float* y, const float* x, int64_t count) {
  int64_t const o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= count * kPoints) return;
  int64_t const t = o / kPoints;
  int const k = static_cast<int>(o % kPoints);
  const float* frame = x + 2 * t * kPoints;
  double re = 0.0;
  double im = 0.0;
  for (int j = 0; j < kPoints; ++j) {
    double s = 0.0;
    double c = 0.0;
    sincospi(-2.0 * ((j * k) % kPoints) / kPoints, &s, &c);
    re += frame[2 * j] * c - frame[2 * j + 1] * s;
    im += frame[2 * j] * s + frame[2 * j + 1] * c;
  }
  y[2 * o] = static_cast<float>(re);
  y[2 * o + 1] = static_cast<float>(im);
}

extern "C" void fft256(float* y, const float* x, int64_t count) {
  if (count <= 0) return;
  int64_t const total = count * kPoints;
  fft256_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(y, x, count);
}
