// A warp per row: lanes stride over its 512 floats.
#include <cstddef>

__global__ void scatter_rows_512_kernel(float* dst, const int* rows, const float* src, size_t count) {
  size_t const k = (static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (k >= count) return;
  unsigned const lane = threadIdx.x % 32;
  float* out = dst + static_cast<size_t>(rows[k]) * 512;
  for (unsigned c = lane; c < 512; c += 32) out[c] = src[k * 512 + c];
}

extern "C" void scatter_rows_512(float* dst, const int* rows, const float* src, size_t count) {
  if (count == 0) return;
  scatter_rows_512_kernel<<<static_cast<unsigned>((count * 32 + 255) / 256), 256>>>(dst, rows, src, count);
}
