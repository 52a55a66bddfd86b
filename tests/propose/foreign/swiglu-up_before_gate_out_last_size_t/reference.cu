// out = up * silu(gate), one thread per element, evaluated in double and rounded once.
#include <cstddef>

__global__ void silu_mul_kernel(const float* up, const float* gate, float* out, size_t n) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double const g = gate[i];
  out[i] = static_cast<float>(static_cast<double>(up[i]) * (g / (1.0 + exp(-g))));
}

extern "C" void silu_mul(const float* up, const float* gate, float* out, size_t n) {
  if (n == 0) return;
  silu_mul_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(up, gate, out, n);
}
