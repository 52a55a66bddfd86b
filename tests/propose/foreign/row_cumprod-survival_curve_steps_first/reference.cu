// One thread per series, a double running product.
__global__ void survival_curve_kernel(float* survival, const float* keep, int num_steps, int num_series) {
  int const s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= num_series) return;
  long long const base = static_cast<long long>(s) * num_steps;
  double p = 1.0;
  for (int t = 0; t < num_steps; ++t) {
    p *= keep[base + t];
    survival[base + t] = static_cast<float>(p);
  }
}

extern "C" void survival_curve(float* survival, const float* keep, int num_steps, int num_series) {
  if (num_series <= 0) return;
  survival_curve_kernel<<<(num_series + 127) / 128, 128>>>(survival, keep, num_steps, num_series);
}
