// hardtanh: one thread per element.
#include <cstdint>

__global__ void hardtanh_kernel(const float* input, float* output, int64_t n, float min_val, float max_val) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) output[i] = fminf(fmaxf(input[i], min_val), max_val);
}

extern "C" void hardtanh_forward(const float* input, float* output, int64_t n, float min_val, float max_val) {
  if (n <= 0) return;
  hardtanh_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(input, output, n, min_val, max_val);
}
