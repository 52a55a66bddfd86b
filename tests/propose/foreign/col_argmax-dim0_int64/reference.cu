// One thread per column walks down it (the first maximum wins), int64_t sizes.
#include <cstdint>

__global__ void argmax_dim0_kernel(const float* self, int* indices, int64_t size0, int64_t size1) {
  int64_t const j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= size1) return;
  int64_t best = 0;
  for (int64_t i = 1; i < size0; ++i) {
    if (self[i * size1 + j] > self[best * size1 + j]) best = i;
  }
  indices[j] = static_cast<int>(best);
}

extern "C" void argmax_dim0(const float* self, int* indices, int64_t size0, int64_t size1) {
  if (size1 <= 0) return;
  argmax_dim0_kernel<<<static_cast<unsigned>((size1 + 255) / 256), 256>>>(self, indices, size0, size1);
}
