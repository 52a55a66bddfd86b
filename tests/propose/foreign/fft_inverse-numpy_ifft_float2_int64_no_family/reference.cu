// Normalised inverse DFT per row (numpy.fft.ifft): one thread per output, exact twiddle indices, double
// twiddles and sums, divided by n before the rounding.
#include <cstdint>

__global__ void ifft_rows_kernel(const float2* a, float2* out, int64_t n, int64_t batch) {
  int64_t const o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= n * batch) return;
  int64_t const b = o / n;
  int64_t const j = o % n;
  const float2* x = a + b * n;
  double re = 0.0;
  double im = 0.0;
  int64_t m = 0;  // j*k mod n
  for (int64_t k = 0; k < n; ++k) {
    double s = 0.0;
    double c = 0.0;
    sincospi(2.0 * static_cast<double>(m) / static_cast<double>(n), &s, &c);
    re += x[k].x * c - x[k].y * s;
    im += x[k].x * s + x[k].y * c;
    m += j;
    if (m >= n) m -= n;
  }
  out[o] = make_float2(static_cast<float>(re / n), static_cast<float>(im / n));
}

extern "C" void ifft_rows(const float2* a, float2* out, int64_t n, int64_t batch) {
  int64_t const outputs = n * batch;
  if (outputs <= 0) return;
  ifft_rows_kernel<<<static_cast<unsigned>((outputs + 255) / 256), 256>>>(a, out, n, batch);
}
