// out = the rows x width block of x (row stride x_stride), made contiguous: one thread per element.
#include <cstddef>

__global__ void narrow_columns_kernel(float* out, const float* x, size_t rows, size_t width,
                                      size_t x_stride) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= rows * width) return;
  size_t const r = i / width;
  size_t const c = i % width;
  out[i] = x[r * x_stride + c];
}

extern "C" void narrow_columns(float* out, const float* x, size_t rows, size_t width, size_t x_stride) {
  size_t const n = rows * width;
  if (n == 0) return;
  narrow_columns_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(out, x, rows, width, x_stride);
}
