// One thread per output: the twiddle index j*k mod n stepped exactly, double twiddles and sums.
#include <cstdint>

__global__ void fft_last_axis_kernel(float* out, const float* a, int64_t batch, int64_t n) {
  int64_t const o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= batch * n) return;
  int64_t const row = o / n;
  int64_t const k = o % n;
  const float* x = a + 2 * row * n;
  double re = 0.0;
  double im = 0.0;
  int64_t m = 0;  // j*k mod n
  for (int64_t j = 0; j < n; ++j) {
    double s = 0.0;
    double c = 0.0;
    sincospi(-2.0 * static_cast<double>(m) / static_cast<double>(n), &s, &c);
    re += x[2 * j] * c - x[2 * j + 1] * s;
    im += x[2 * j] * s + x[2 * j + 1] * c;
    m += k;
    if (m >= n) m -= n;
  }
  out[2 * o] = static_cast<float>(re);
  out[2 * o + 1] = static_cast<float>(im);
}

extern "C" void fft_last_axis(float* out, const float* a, int64_t batch, int64_t n) {
  int64_t const total = batch * n;
  if (total <= 0) return;
  fft_last_axis_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(out, a, batch, n);
}
