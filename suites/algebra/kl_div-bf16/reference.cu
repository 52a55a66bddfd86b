// Reference for kl_div-bf16 (kernel in ../loss-common.cuh).
#include "../loss-common.cuh"

extern "C" void kl_div(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* y, int n) {
  loss_reference<KlTerm>(out, x, y, n);
}
