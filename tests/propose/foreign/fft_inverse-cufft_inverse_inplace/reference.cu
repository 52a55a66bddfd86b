// In-place inverse DFT (exponent +, unnormalised): data is first copied to a scratch buffer, then one
// thread per output sums over the copy (the twiddle index j*k mod nx stepped exactly, double twiddles and
// sums) and overwrites data.
#include <cufft.h>

__global__ void idft_from_copy_kernel(cufftComplex* data, const cufftComplex* copy, int nx, int batch) {
  long long const o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= static_cast<long long>(nx) * batch) return;
  long long const b = o / nx;
  int const j = static_cast<int>(o % nx);
  const cufftComplex* x = copy + b * nx;
  double re = 0.0;
  double im = 0.0;
  int m = 0;  // j*k mod nx
  for (int k = 0; k < nx; ++k) {
    double s = 0.0;
    double c = 0.0;
    sincospi(2.0 * m / nx, &s, &c);
    re += x[k].x * c - x[k].y * s;
    im += x[k].x * s + x[k].y * c;
    m += j;
    if (m >= nx) m -= nx;
  }
  data[o] = make_cuFloatComplex(static_cast<float>(re), static_cast<float>(im));
}

extern "C" void inverse_c2c_inplace(cufftComplex* data, int nx, int batch) {
  long long const outputs = static_cast<long long>(nx) * batch;
  if (outputs <= 0) return;
  size_t const bytes = outputs * sizeof(cufftComplex);
  cufftComplex* copy = nullptr;
  cudaMalloc(&copy, bytes);
  cudaMemcpy(copy, data, bytes, cudaMemcpyDeviceToDevice);
  idft_from_copy_kernel<<<static_cast<unsigned>((outputs + 255) / 256), 256>>>(data, copy, nx, batch);
  cudaFree(copy);
}
