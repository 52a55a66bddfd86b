// One thread per output walks its column of the slab, int64_t sizes, a double sum rounded once.
#include <cstdint>

__global__ void sum_dim1_kernel(const float* self, float* result, int64_t size0, int64_t size1,
                                int64_t size2) {
  int64_t const o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= size0 * size2) return;
  int64_t const i = o / size2;
  int64_t const k = o % size2;
  double sum = 0.0;
  for (int64_t j = 0; j < size1; ++j) sum += self[(i * size1 + j) * size2 + k];
  result[o] = static_cast<float>(sum);
}

extern "C" void sum_dim1(const float* self, float* result, int64_t size0, int64_t size1, int64_t size2) {
  int64_t const n = size0 * size2;
  if (n <= 0) return;
  sum_dim1_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(self, result, size0, size1, size2);
}
