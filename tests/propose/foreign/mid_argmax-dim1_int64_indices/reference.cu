// One thread per output walks its column of the slab (the first maximum wins, a NaN wins), int64_t sizes.
#include <cstdint>

__global__ void argmax_dim1_kernel(const float* self, int64_t* indices, int64_t size0, int64_t size1,
                                   int64_t size2) {
  int64_t const o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= size0 * size2) return;
  int64_t const i = o / size2;
  int64_t const k = o % size2;
  int64_t best = 0;
  float best_value = self[i * size1 * size2 + k];
  for (int64_t j = 1; j < size1 && best_value == best_value; ++j) {
    float const v = self[(i * size1 + j) * size2 + k];
    if (v > best_value || v != v) {
      best = j;
      best_value = v;
    }
  }
  indices[o] = best;
}

extern "C" void argmax_dim1(const float* self, int64_t* indices, int64_t size0, int64_t size1,
                            int64_t size2) {
  int64_t const n = size0 * size2;
  if (n <= 0) return;
  argmax_dim1_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(self, indices, size0, size1, size2);
}
