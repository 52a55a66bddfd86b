// Reference for avgpool2d-f32: see ../pool2d-common.cuh. No baseline (see task.toml).
#include "../pool2d-common.cuh"

extern "C" void avgpool2d(float* out, const float* in, int N, int C, int H, int W, int K, int S) {
  scientific_suite::pool2d_reference<float, scientific_suite::Pool::average>(out, in, N, C, H, W, K, S);
}
