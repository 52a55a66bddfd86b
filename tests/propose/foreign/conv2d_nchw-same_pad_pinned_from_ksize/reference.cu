// One thread per output pixel of one (image, output channel) plane; the padding is ks / 2 (odd ks).
#include <cstddef>

__global__ void conv_same_kernel(float* dst, const float* src, const float* filt, size_t cin, size_t cout,
                                 size_t rows, size_t cols, size_t ks) {
  size_t const c = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  size_t const r = blockIdx.y;
  size_t const b = blockIdx.z / cout;
  size_t const o = blockIdx.z % cout;
  if (c >= cols) return;
  long long const half = static_cast<long long>(ks / 2);
  float acc = 0.0f;
  for (size_t i = 0; i < cin; ++i) {
    for (size_t u = 0; u < ks; ++u) {
      long long const rr = static_cast<long long>(r + u) - half;
      if (rr < 0 || rr >= static_cast<long long>(rows)) continue;
      for (size_t v = 0; v < ks; ++v) {
        long long const cc = static_cast<long long>(c + v) - half;
        if (cc < 0 || cc >= static_cast<long long>(cols)) continue;
        acc += src[((b * cin + i) * rows + rr) * cols + cc] * filt[((o * cin + i) * ks + u) * ks + v];
      }
    }
  }
  dst[((b * cout + o) * rows + r) * cols + c] = acc;
}

extern "C" void conv_same(float* dst, const float* src, const float* filt, size_t nb, size_t cin, size_t cout,
                          size_t rows, size_t cols, size_t ks) {
  if (nb == 0 || cout == 0 || rows == 0 || cols == 0) return;
  dim3 const grid(static_cast<unsigned>((cols + 63) / 64), static_cast<unsigned>(rows),
                  static_cast<unsigned>(nb * cout));
  conv_same_kernel<<<grid, 64>>>(dst, src, filt, cin, cout, rows, cols, ks);
}
