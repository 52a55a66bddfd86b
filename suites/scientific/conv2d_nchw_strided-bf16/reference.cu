// Reference for conv2d_nchw_strided-bf16 (kernel in ../conv2d_nchw-common.cuh, nn.Conv2d's whole geometry).
#include "../conv2d_nchw-common.cuh"

extern "C" void conv2d_nchw_strided(__nv_bfloat16* y, const __nv_bfloat16* x, const __nv_bfloat16* w, int N,
                                    int Cin, int Cout, int H, int W, int KH, int KW, int SH, int SW, int PH,
                                    int PW, int DH, int DW) {
  conv2d_nchw_reference(y, x, w, N, Cin, Cout, H, W, Conv2dGeometry{KH, KW, SH, SW, PH, PW, DH, DW});
}
