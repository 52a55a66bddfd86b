// Vendor baseline for hinge_loss_broadcast-bf16: cub::DeviceReduce over a transform iterator
// (../loss-cub.cuh).
#include "../loss-cub.cuh"

extern "C" void hinge_loss_broadcast(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* y,
                                     int rows, int cols) {
  loss_rows_baseline_cub<HingeTerm, LossY::kBroadcastRows, LossDivisor::kAll>(out, x, y, rows, cols);
}
