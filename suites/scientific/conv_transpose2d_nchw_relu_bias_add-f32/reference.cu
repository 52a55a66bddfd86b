// Reference for conv_transpose2d_nchw_relu_bias_add-f32 (kernel in ../conv_transpose2d_nchw-common.cuh,
// nn.ConvTranspose2d's whole geometry).
#include "../conv_transpose2d_nchw-common.cuh"

extern "C" void conv_transpose2d_relu_bias_add(float* y, const float* x, const float* w, int N, int Cin,
                                               int Cout, int H, int W, int KH, int KW, int SH, int SW, int PH,
                                               int PW, int DH, int DW, int OPH, int OPW, const float* bias,
                                               const float* shift) {
  conv_transpose2d_suite::conv_transpose2d_nchw_reference(
      y, x, w, N, Cin, Cout, H, W,
      conv_transpose2d_suite::ConvTranspose2dGeometry{KH, KW, SH, SW, PH, PW, DH, DW, OPH, OPW}, bias, shift);
}
