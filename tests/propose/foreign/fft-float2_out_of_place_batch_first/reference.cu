// Forward DFT on float2 values, one thread per output: the twiddle index j*k mod n stepped exactly,
// double twiddles and sums, one rounding.
__global__ void dft_float2_kernel(const float2* __restrict__ x, float2* __restrict__ y, int batches, int n) {
  long long const o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= static_cast<long long>(n) * batches) return;
  long long const b = o / n;
  int const k = static_cast<int>(o % n);
  const float2* in = x + b * n;
  double re = 0.0;
  double im = 0.0;
  int m = 0;  // j*k mod n
  for (int j = 0; j < n; ++j) {
    double s = 0.0;
    double c = 0.0;
    sincospi(-2.0 * m / n, &s, &c);
    re += in[j].x * c - in[j].y * s;
    im += in[j].x * s + in[j].y * c;
    m += k;
    if (m >= n) m -= n;
  }
  y[o] = make_float2(static_cast<float>(re), static_cast<float>(im));
}

extern "C" void dft_float2(const float2* __restrict__ x, float2* __restrict__ y, int batches, int n) {
  long long const outputs = static_cast<long long>(n) * batches;
  if (outputs <= 0) return;
  dft_float2_kernel<<<static_cast<unsigned>((outputs + 255) / 256), 256>>>(x, y, batches, n);
}
