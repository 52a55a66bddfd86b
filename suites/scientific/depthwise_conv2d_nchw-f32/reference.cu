// Reference for depthwise_conv2d_nchw-f32 (kernel in ../depthwise_conv2d_nchw-common.cuh).
#include "../depthwise_conv2d_nchw-common.cuh"

extern "C" void depthwise_conv2d(float* y, const float* x, const float* w, int N, int C, int H, int W, int KH,
                                 int KW, int SH, int SW, int PH, int PW, int DH, int DW) {
  scientific_suite::depthwise_conv2d_nchw_reference(
      y, x, w, N, C, H, W, scientific_suite::DepthwiseGeometry{KH, KW, SH, SW, PH, PW, DH, DW});
}
