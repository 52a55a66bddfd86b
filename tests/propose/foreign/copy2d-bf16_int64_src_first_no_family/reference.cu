// dst = a strided BF16 copy of src's n_rows x n_cols block: one thread per element.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void strided_copy_bf16_kernel(const __nv_bfloat16* src, __nv_bfloat16* dst, int64_t n_rows,
                                         int64_t n_cols, int64_t src_stride, int64_t dst_stride) {
  int64_t const k = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n_rows * n_cols) return;
  int64_t const i = k / n_cols;
  int64_t const j = k % n_cols;
  dst[i * dst_stride + j] = src[i * src_stride + j];
}

extern "C" void strided_copy_bf16(const __nv_bfloat16* src, __nv_bfloat16* dst, int64_t n_rows,
                                  int64_t n_cols, int64_t src_stride, int64_t dst_stride) {
  if (n_rows <= 0 || n_cols <= 0) return;
  int64_t const n = n_rows * n_cols;
  strided_copy_bf16_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(src, dst, n_rows, n_cols,
                                                                            src_stride, dst_stride);
}
