// Vendor baseline for conv2d_nchw_strided_bias_relu-bf16: im2col with the layer's geometry, then a
// strided-batched cuBLAS GEMM (../conv2d_nchw-common.cuh).
#include "../conv2d_nchw-common.cuh"

extern "C" void conv2d_nchw_strided_bias_relu(__nv_bfloat16* y, const __nv_bfloat16* x,
                                              const __nv_bfloat16* w, int N, int Cin, int Cout, int H, int W,
                                              int KH, int KW, int SH, int SW, int PH, int PW, int DH, int DW,
                                              const __nv_bfloat16* bias) {
  conv2d_nchw_baseline_cublas(y, x, w, N, Cin, Cout, H, W, Conv2dGeometry{KH, KW, SH, SW, PH, PW, DH, DW},
                              bias);
}
