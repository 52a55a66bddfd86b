// One thread per output: the direct sum with double-precision twiddles (index j*k reduced mod n exactly)
// and double accumulation.
__global__ void dft_planar_kernel(const float* xr, const float* xi, float* yr, float* yi, int n, int batch) {
  long long const o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= static_cast<long long>(n) * batch) return;
  long long const b = o / n;
  long long const k = o % n;
  double sum_re = 0.0;
  double sum_im = 0.0;
  for (long long j = 0; j < n; ++j) {
    double s = 0.0;
    double c = 0.0;
    sincospi(-2.0 * static_cast<double>((j * k) % n) / n, &s, &c);
    double const a = xr[b * n + j];
    double const d = xi[b * n + j];
    sum_re += a * c - d * s;
    sum_im += a * s + d * c;
  }
  yr[o] = static_cast<float>(sum_re);
  yi[o] = static_cast<float>(sum_im);
}

extern "C" void dft_planar(const float* xr, const float* xi, float* yr, float* yi, int n, int batch) {
  long long const total = static_cast<long long>(n) * batch;
  if (total <= 0) return;
  dft_planar_kernel<<<static_cast<unsigned>((total + 127) / 128), 128>>>(xr, xi, yr, yi, n, batch);
}
