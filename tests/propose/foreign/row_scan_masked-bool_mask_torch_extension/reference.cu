// One thread per row, a double running sum of the elements whose mask is true.
#include <cstdint>

__global__ void masked_cumsum_kernel(const float* x, const bool* mask, float* out, int64_t batch_size,
                                     int64_t length) {
  int64_t const b = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (b >= batch_size) return;
  double s = 0.0;
  for (int64_t t = 0; t < length; ++t) {
    if (mask[b * length + t]) s += x[b * length + t];
    out[b * length + t] = static_cast<float>(s);
  }
}

extern "C" void masked_cumsum(const float* x, const bool* mask, float* out, int64_t batch_size,
                              int64_t length) {
  if (batch_size <= 0 || length <= 0) return;
  masked_cumsum_kernel<<<static_cast<unsigned>((batch_size + 127) / 128), 128>>>(x, mask, out, batch_size,
                                                                                 length);
}
