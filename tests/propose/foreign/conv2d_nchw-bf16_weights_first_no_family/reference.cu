// One thread per output element (flat index over n, c_out, out_h, out_w), FP32 sums, zero padding.
#include <cuda_bf16.h>

__global__ void conv_forward_bf16_kernel(const __nv_bfloat16* weight, const __nv_bfloat16* input,
                                         __nv_bfloat16* output, int n, int c_in, int h, int w, int c_out,
                                         int k, int padding) {
  int const out_h = h + 2 * padding - k + 1;
  int const out_w = w + 2 * padding - k + 1;
  long long const idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= static_cast<long long>(n) * c_out * out_h * out_w) return;
  int const x = static_cast<int>(idx % out_w);
  int const y = static_cast<int>(idx / out_w % out_h);
  int const o = static_cast<int>(idx / (static_cast<long long>(out_w) * out_h) % c_out);
  int const b = static_cast<int>(idx / (static_cast<long long>(out_w) * out_h * c_out));
  float sum = 0.0f;
  for (int c = 0; c < c_in; ++c) {
    for (int i = 0; i < k; ++i) {
      for (int j = 0; j < k; ++j) {
        int const yy = y + i - padding;
        int const xx = x + j - padding;
        if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
        sum += __bfloat162float(input[((static_cast<long long>(b) * c_in + c) * h + yy) * w + xx]) *
               __bfloat162float(weight[((o * c_in + c) * k + i) * k + j]);
      }
    }
  }
  output[idx] = __float2bfloat16(sum);
}

extern "C" void conv_forward_bf16(const __nv_bfloat16* weight, const __nv_bfloat16* input,
                                  __nv_bfloat16* output, int n, int c_in, int h, int w, int c_out, int k,
                                  int padding) {
  long long const total =
      static_cast<long long>(n) * c_out * (h + 2 * padding - k + 1) * (w + 2 * padding - k + 1);
  if (total <= 0) return;
  conv_forward_bf16_kernel<<<static_cast<unsigned>((total + 127) / 128), 128>>>(
      weight, input, output, n, c_in, h, w, c_out, k, padding);
}
