// Reference for conv2d_nchw_strided-f32 (kernel in ../conv2d_nchw-common.cuh, nn.Conv2d's whole geometry).
#include "../conv2d_nchw-common.cuh"

extern "C" void conv2d_nchw_strided(float* y, const float* x, const float* w, int N, int Cin, int Cout, int H,
                                    int W, int KH, int KW, int SH, int SW, int PH, int PW, int DH, int DW) {
  conv2d_nchw_reference(y, x, w, N, Cin, Cout, H, W, Conv2dGeometry{KH, KW, SH, SW, PH, PW, DH, DW});
}
