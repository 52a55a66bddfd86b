// Vendor baseline for mse_loss-f32: cub::DeviceReduce over a transform iterator (../loss-cub.cuh).
#include "../loss-cub.cuh"

extern "C" void mse_loss(float* out, const float* x, const float* y, int n) {
  loss_baseline_cub<SquaredError>(out, x, y, n);
}
