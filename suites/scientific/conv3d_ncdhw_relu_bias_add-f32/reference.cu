// Reference for conv3d_ncdhw_relu_bias_add-f32 (kernel in ../conv3d_ncdhw-common.cuh, nn.Conv3d's whole
// geometry).
#include "../conv3d_ncdhw-common.cuh"

extern "C" void conv3d_relu_bias_add(float* y, const float* x, const float* w, int N, int Cin, int Cout,
                                     int D, int H, int W, int KD, int KH, int KW, int SD, int SH, int SW,
                                     int PD, int PH, int PW, int DD, int DH, int DW, const float* bias,
                                     const float* shift) {
  conv3d_ncdhw_reference(y, x, w, N, Cin, Cout, D, H, W,
                         Conv3dGeometry{KD, KH, KW, SD, SH, SW, PD, PH, PW, DD, DH, DW}, bias, shift);
}
