// index_select over dim 0: one thread per destination element.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void index_select_kernel(const __nv_bfloat16* src, const int* index, __nv_bfloat16* dst,
                                    size_t num_indices, size_t row_len) {
  size_t const e = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= num_indices * row_len) return;
  size_t const k = e / row_len;
  size_t const c = e % row_len;
  dst[e] = src[static_cast<size_t>(index[k]) * row_len + c];
}

extern "C" void index_select_rows_bf16(const __nv_bfloat16* src, const int* index, __nv_bfloat16* dst,
                                       size_t num_indices, size_t row_len) {
  size_t const total = num_indices * row_len;
  if (total == 0) return;
  index_select_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(src, index, dst, num_indices,
                                                                           row_len);
}
