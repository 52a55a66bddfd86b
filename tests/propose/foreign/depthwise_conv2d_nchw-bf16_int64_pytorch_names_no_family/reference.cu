// A BF16 depthwise convolution after aten's conv_depthwise2d_forward_kernel: one thread per output, the
// channel's kernel_height x kernel_width taps inside the input (zero padding, strides and dilations per
// axis) summed in FP32, one rounding per output.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void conv_depthwise2d_forward_kernel(
    const __nv_bfloat16* input, __nv_bfloat16* output, const __nv_bfloat16* weight, int64_t channels,
    int64_t input_height, int64_t input_width, int64_t output_height, int64_t output_width,
    int64_t kernel_height, int64_t kernel_width, int64_t stride_height, int64_t stride_width,
    int64_t pad_height, int64_t pad_width, int64_t dilation_height, int64_t dilation_width, int64_t total) {
  int64_t const index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= total) return;
  int64_t const out_x = index % output_width;
  int64_t const out_y = index / output_width % output_height;
  int64_t const plane = index / (output_width * output_height);  // b * channels + c
  int64_t const c = plane % channels;
  const __nv_bfloat16* image = input + plane * input_height * input_width;
  const __nv_bfloat16* filter = weight + c * kernel_height * kernel_width;
  float sum = 0.0f;
  for (int64_t ky = 0; ky < kernel_height; ++ky) {
    int64_t const y = out_y * stride_height - pad_height + ky * dilation_height;
    if (y < 0 || y >= input_height) continue;
    for (int64_t kx = 0; kx < kernel_width; ++kx) {
      int64_t const x = out_x * stride_width - pad_width + kx * dilation_width;
      if (x < 0 || x >= input_width) continue;
      sum += __bfloat162float(image[y * input_width + x]) * __bfloat162float(filter[ky * kernel_width + kx]);
    }
  }
  output[index] = __float2bfloat16_rn(sum);
}

extern "C" void conv_depthwise2d_forward_bf16(const __nv_bfloat16* input, __nv_bfloat16* output,
                                              const __nv_bfloat16* weight, int64_t batch_size,
                                              int64_t channels, int64_t input_height, int64_t input_width,
                                              int64_t kernel_height, int64_t kernel_width,
                                              int64_t stride_height, int64_t stride_width, int64_t pad_height,
                                              int64_t pad_width, int64_t dilation_height,
                                              int64_t dilation_width) {
  int64_t const output_height =
      (input_height + 2 * pad_height - dilation_height * (kernel_height - 1) - 1) / stride_height + 1;
  int64_t const output_width =
      (input_width + 2 * pad_width - dilation_width * (kernel_width - 1) - 1) / stride_width + 1;
  int64_t const total = batch_size * channels * output_height * output_width;
  if (output_height <= 0 || output_width <= 0 || total <= 0) return;
  conv_depthwise2d_forward_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(
      input, output, weight, channels, input_height, input_width, output_height, output_width, kernel_height,
      kernel_width, stride_height, stride_width, pad_height, pad_width, dilation_height, dilation_width,
      total);
}
