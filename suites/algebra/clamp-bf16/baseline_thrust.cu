// Vendor baseline for clamp-bf16: thrust::transform (../clamp-thrust.cuh).
#include "../clamp-thrust.cuh"

extern "C" void clamp(__nv_bfloat16* y, const __nv_bfloat16* x, float lo, float hi, int n) {
  clamp_baseline_thrust(y, x, lo, hi, n);
}
