// Reference for conv2d_nchw_bias_relu-bf16 (kernel in ../conv2d_nchw-common.cuh, with the bias and the ReLU).
#include "../conv2d_nchw-common.cuh"

extern "C" void conv2d_bias_relu(__nv_bfloat16* y, const __nv_bfloat16* x, const __nv_bfloat16* w, int N,
                                 int Cin, int Cout, int H, int W, int K, int pad, const __nv_bfloat16* bias) {
  conv2d_nchw_reference(y, x, w, N, Cin, Cout, H, W, K, pad, bias);
}
