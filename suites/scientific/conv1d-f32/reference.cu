// Reference for conv1d-f32: see ../conv1d-common.cuh. No baseline (see task.toml).
#include "../conv1d-common.cuh"

extern "C" void conv1d(float* out, const float* in, const float* w, int n, int K) {
  conv1d_reference(out, in, w, n, K);
}
