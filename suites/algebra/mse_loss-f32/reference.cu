// Reference for mse_loss-f32 (kernel in ../loss-common.cuh).
#include "../loss-common.cuh"

extern "C" void mse_loss(float* out, const float* x, const float* y, int n) {
  loss_reference<SquaredError>(out, x, y, n);
}
