// Reference for depthwise_conv2d_nchw_bias_relu6-f32 (kernel in ../depthwise_conv2d_nchw-common.cuh): the
// bias added and the ReLU6 applied in double before the one rounding.
#include "../depthwise_conv2d_nchw-common.cuh"

extern "C" void depthwise_conv2d_bias_relu6(float* y, const float* x, const float* w, int N, int C, int H,
                                            int W, int KH, int KW, int SH, int SW, int PH, int PW, int DH,
                                            int DW, const float* bias) {
  scientific_suite::depthwise_conv2d_nchw_reference(
      y, x, w, N, C, H, W, scientific_suite::DepthwiseGeometry{KH, KW, SH, SW, PH, PW, DH, DW}, bias, true);
}
