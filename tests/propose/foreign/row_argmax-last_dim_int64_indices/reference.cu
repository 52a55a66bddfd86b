// One thread per row walks it (the first maximum wins, a NaN wins), int64 indices and sizes.
#include <cstdint>

__global__ void argmax_last_kernel(const float* self, int64_t* indices, int64_t size0, int64_t size1) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size0) return;
  float const* row = self + i * size1;
  int64_t best = 0;
  float best_value = row[0];
  for (int64_t j = 1; j < size1 && best_value == best_value; ++j) {
    if (row[j] > best_value || row[j] != row[j]) {
      best = j;
      best_value = row[j];
    }
  }
  indices[i] = best;
}

extern "C" void argmax_last(const float* self, int64_t* indices, int64_t size0, int64_t size1) {
  if (size0 <= 0) return;
  argmax_last_kernel<<<static_cast<unsigned>((size0 + 255) / 256), 256>>>(self, indices, size0, size1);
}
