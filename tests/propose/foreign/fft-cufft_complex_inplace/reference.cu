// In-place forward DFT on cufftComplex: the input is copied, then one thread per output sums over the copy
// (the twiddle index j*k mod n stepped exactly, double twiddles and sums) and overwrites data.
#include <cufft.h>

__global__ void dft_c2c_kernel(cufftComplex* data, const cufftComplex* copy, int n, int batch) {
  long long const o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= static_cast<long long>(n) * batch) return;
  long long const b = o / n;
  int const k = static_cast<int>(o % n);
  const cufftComplex* x = copy + b * n;
  double re = 0.0;
  double im = 0.0;
  int m = 0;  // j*k mod n
  for (int j = 0; j < n; ++j) {
    double s = 0.0;
    double c = 0.0;
    sincospi(-2.0 * m / n, &s, &c);
    re += x[j].x * c - x[j].y * s;
    im += x[j].x * s + x[j].y * c;
    m += k;
    if (m >= n) m -= n;
  }
  data[o].x = static_cast<float>(re);
  data[o].y = static_cast<float>(im);
}

extern "C" void fft_c2c_inplace(cufftComplex* data, int n, int batch) {
  long long const outputs = static_cast<long long>(n) * batch;
  if (outputs <= 0) return;
  cufftComplex* copy = nullptr;
  cudaMalloc(&copy, outputs * sizeof(cufftComplex));
  cudaMemcpy(copy, data, outputs * sizeof(cufftComplex), cudaMemcpyDeviceToDevice);
  dft_c2c_kernel<<<static_cast<unsigned>((outputs + 255) / 256), 256>>>(data, copy, n, batch);
  cudaFree(copy);
}
