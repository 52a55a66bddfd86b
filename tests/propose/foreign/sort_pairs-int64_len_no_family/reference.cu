// One thread per element counts the elements that go before it (smaller, or equal and earlier) and
// writes the element there. 64-bit lengths throughout.
#include <cstdint>

__global__ void stable_order_kernel(float* sorted, int32_t* order, const float* data,
                                    const int32_t* positions, int64_t len) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= len) return;
  float const x = data[i];
  int64_t before = 0;
  for (int64_t j = 0; j < i; ++j) before += data[j] <= x ? 1 : 0;
  for (int64_t j = i + 1; j < len; ++j) before += data[j] < x ? 1 : 0;
  sorted[before] = x;
  order[before] = positions[i];
}

extern "C" void stable_order(float* sorted, int32_t* order, const float* data, const int32_t* positions,
                             int64_t len) {
  if (len <= 0) return;
  stable_order_kernel<<<static_cast<unsigned>((len + 127) / 128), 128>>>(sorted, order, data, positions, len);
}
