// index_add_ over dim 0: one thread per source element, a BF16 atomic add into the row.
#include <cuda_bf16.h>

__global__ void index_add_kernel(__nv_bfloat16* self, const int* index, const __nv_bfloat16* source,
                                 int rows_added, int width) {
  long long const e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= static_cast<long long>(rows_added) * width) return;
  long long const k = e / width;
  long long const c = e % width;
  atomicAdd(&self[static_cast<long long>(index[k]) * width + c], source[e]);
}

extern "C" void index_add_rows_bf16(__nv_bfloat16* self, const int* index, const __nv_bfloat16* source,
                                    int rows_added, int width) {
  long long const total = static_cast<long long>(rows_added) * width;
  if (total <= 0) return;
  index_add_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(self, index, source, rows_added,
                                                                        width);
}
