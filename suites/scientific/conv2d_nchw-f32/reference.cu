// Reference for conv2d_nchw-f32 (kernel in ../conv2d_nchw-common.cuh).
#include "../conv2d_nchw-common.cuh"

extern "C" void conv2d_nchw(float* y, const float* x, const float* w, int N, int Cin, int Cout, int H, int W,
                            int K, int pad) {
  conv2d_nchw_reference(y, x, w, N, Cin, Cout, H, W, K, pad);
}
