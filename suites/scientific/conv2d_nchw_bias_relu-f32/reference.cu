// Reference for conv2d_nchw_bias_relu-f32 (kernel in ../conv2d_nchw-common.cuh, with the bias and the ReLU).
#include "../conv2d_nchw-common.cuh"

extern "C" void conv2d_bias_relu(float* y, const float* x, const float* w, int N, int Cin, int Cout, int H,
                                 int W, int K, int pad, const float* bias) {
  conv2d_nchw_reference(y, x, w, N, Cin, Cout, H, W, K, pad, bias);
}
