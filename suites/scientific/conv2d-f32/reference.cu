// Reference for conv2d-f32: see ../conv2d-common.cuh. No baseline (see task.toml).
#include "../conv2d-common.cuh"

extern "C" void conv2d(float* out, const float* in, const float* w, int H, int W, int K) {
  conv2d_reference(out, in, w, H, W, K);
}
