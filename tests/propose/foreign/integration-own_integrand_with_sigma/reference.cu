// Composite Simpson of exp(-x^2 / (2 sigma^2)), one thread per integral: FP32 samples summed in double.
__global__ void gauss_width_kernel(const float* lo, const float* hi, float* out, float sigma, int count,
                                   int steps) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  float const h = (hi[i] - lo[i]) / static_cast<float>(steps);
  double sum = 0.0;
  for (int j = 0; j <= steps; ++j) {
    float const weight = (j == 0 || j == steps) ? 1.0f : (j % 2 == 1 ? 4.0f : 2.0f);
    float const x = lo[i] + static_cast<float>(j) * h;
    sum += weight * expf(-x * x / (2.0f * sigma * sigma));
  }
  out[i] = static_cast<float>(sum * (static_cast<double>(h) / 3.0));
}

extern "C" void gauss_width(const float* lo, const float* hi, float* out, float sigma, int count, int steps) {
  if (count <= 0 || steps <= 0) return;
  gauss_width_kernel<<<(count + 127) / 128, 128>>>(lo, hi, out, sigma, count, steps);
}
