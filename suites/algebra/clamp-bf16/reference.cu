// Reference for clamp-bf16 (kernel in ../clamp-common.cuh).
#include "../clamp-common.cuh"

extern "C" void clamp(__nv_bfloat16* y, const __nv_bfloat16* x, float lo, float hi, int n) {
  clamp_reference(y, x, lo, hi, n);
}
