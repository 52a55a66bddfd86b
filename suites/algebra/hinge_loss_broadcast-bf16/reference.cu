// Reference for hinge_loss_broadcast-bf16 (kernel in ../loss-common.cuh).
#include "../loss-common.cuh"

extern "C" void hinge_loss_broadcast(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* y,
                                     int rows, int cols) {
  loss_rows_reference<HingeTerm, LossY::kBroadcastRows, LossDivisor::kAll>(out, x, y, rows, cols);
}
