// One thread per output pixel (flat index), zero padding kernel_size / 2, FP32 sums in (i, j) order.
#include <cstdint>

__global__ void conv2d_forward_kernel(const float* input, const float* weight, float* output, int64_t H,
                                      int64_t W, int64_t kernel_size) {
  int64_t const idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= H * W) return;
  int64_t const h = idx / W;
  int64_t const w = idx % W;
  int64_t const pad = kernel_size / 2;
  float acc = 0.0f;
  for (int64_t i = 0; i < kernel_size; ++i) {
    for (int64_t j = 0; j < kernel_size; ++j) {
      int64_t const hh = h + i - pad;
      int64_t const ww = w + j - pad;
      if (hh < 0 || hh >= H || ww < 0 || ww >= W) continue;
      acc += weight[i * kernel_size + j] * input[hh * W + ww];
    }
  }
  output[idx] = acc;
}

extern "C" void conv2d_forward(const float* input, const float* weight, float* output, int64_t H, int64_t W,
                               int64_t kernel_size) {
  int64_t const total = H * W;
  if (total <= 0 || kernel_size <= 0) return;
  conv2d_forward_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(input, weight, output, H, W,
                                                                             kernel_size);
}
