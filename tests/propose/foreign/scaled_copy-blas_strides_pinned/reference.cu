// y[i*incy] = alpha * x[i*incx], one float multiplication rounded once (as the suite's scaled_copy).
__global__ void scopy_scaled_kernel(int n, float alpha, const float* x, int incx, float* y, int incy) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[static_cast<long long>(i) * incy] = alpha * x[static_cast<long long>(i) * incx];
}

extern "C" void scopy_scaled(int n, float alpha, const float* x, int incx, float* y, int incy) {
  if (n <= 0) return;
  scopy_scaled_kernel<<<(n + 255) / 256, 256>>>(n, alpha, x, incx, y, incy);
}
