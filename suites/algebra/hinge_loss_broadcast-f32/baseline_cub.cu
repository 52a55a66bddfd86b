// Vendor baseline for hinge_loss_broadcast-f32: cub::DeviceReduce over a transform iterator
// (../loss-cub.cuh).
#include "../loss-cub.cuh"

extern "C" void hinge_loss_broadcast(float* out, const float* x, const float* y, int rows, int cols) {
  loss_rows_baseline_cub<HingeTerm, LossY::kBroadcastRows, LossDivisor::kAll>(out, x, y, rows, cols);
}
