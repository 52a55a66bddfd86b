// In-place forward DFT: data is first copied to a scratch buffer, then one thread per output sums over
// the copy (the twiddle index j*k mod n stepped exactly, double twiddles and sums) and overwrites data.
__global__ void dft_from_copy_kernel(float* data, const float* copy, int n, int batch) {
  long long const o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= static_cast<long long>(n) * batch) return;
  long long const b = o / n;
  int const k = static_cast<int>(o % n);
  const float* x = copy + 2 * b * n;
  double re = 0.0;
  double im = 0.0;
  int m = 0;  // j*k mod n
  for (int j = 0; j < n; ++j) {
    double s = 0.0;
    double c = 0.0;
    sincospi(-2.0 * m / n, &s, &c);
    re += x[2 * j] * c - x[2 * j + 1] * s;
    im += x[2 * j] * s + x[2 * j + 1] * c;
    m += k;
    if (m >= n) m -= n;
  }
  data[2 * o] = static_cast<float>(re);
  data[2 * o + 1] = static_cast<float>(im);
}

extern "C" void fft_inplace(float* data, int n, int batch) {
  long long const outputs = static_cast<long long>(n) * batch;
  if (outputs <= 0) return;
  size_t const bytes = 2 * outputs * sizeof(float);
  float* copy = nullptr;
  cudaMalloc(&copy, bytes);
  cudaMemcpy(copy, data, bytes, cudaMemcpyDeviceToDevice);
  dft_from_copy_kernel<<<static_cast<unsigned>((outputs + 255) / 256), 256>>>(data, copy, n, batch);
  cudaFree(copy);
}
