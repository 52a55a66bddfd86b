// index_copy_ over dim 0: one thread per source element, int64 indices.
#include <cstdint>

__global__ void index_copy_kernel(const float* source, const int64_t* index, float* self, int64_t num_index,
                                  int64_t row_size) {
  int64_t const e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= num_index * row_size) return;
  int64_t const i = e / row_size;
  int64_t const j = e % row_size;
  self[index[i] * row_size + j] = source[e];
}

extern "C" void index_copy_rows(const float* source, const int64_t* index, float* self, int64_t num_index,
                                int64_t row_size, int64_t self_rows) {
  (void)self_rows;
  int64_t const total = num_index * row_size;
  if (total <= 0) return;
  index_copy_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(source, index, self, num_index,
                                                                         row_size);
}
