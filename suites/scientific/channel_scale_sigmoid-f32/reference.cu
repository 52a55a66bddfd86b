// Reference for channel_scale_sigmoid-f32: see ../channel_scale_sigmoid-common.cuh. No baseline (see
// task.toml).
#include "../channel_scale_sigmoid-common.cuh"

extern "C" void channel_scale_sigmoid(float* out, const float* x, const float* scale, int N, int C, int HW) {
  channel_scale_sigmoid_reference(out, x, scale, N, C, HW);
}
