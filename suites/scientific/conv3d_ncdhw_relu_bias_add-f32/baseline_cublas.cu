// Vendor baseline for conv3d_ncdhw_relu_bias_add-f32: vol2col with the layer's geometry, then a
// strided-batched cuBLAS GEMM (../conv3d_ncdhw-common.cuh).
#include "../conv3d_ncdhw-common.cuh"

extern "C" void conv3d_relu_bias_add(float* y, const float* x, const float* w, int N, int Cin, int Cout,
                                     int D, int H, int W, int KD, int KH, int KW, int SD, int SH, int SW,
                                     int PD, int PH, int PW, int DD, int DH, int DW, const float* bias,
                                     const float* shift) {
  conv3d_ncdhw_baseline_cublas(y, x, w, N, Cin, Cout, D, H, W,
                               Conv3dGeometry{KD, KH, KW, SD, SH, SW, PD, PH, PW, DD, DH, DW}, bias, shift);
}
