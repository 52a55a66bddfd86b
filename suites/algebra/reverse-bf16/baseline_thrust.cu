// Vendor baseline for reverse-bf16: thrust::copy from a reverse iterator (../reverse-thrust.cuh).
#include "../reverse-thrust.cuh"

extern "C" void reverse(__nv_bfloat16* out, const __nv_bfloat16* in, int n) {
  reverse_baseline_thrust(out, in, n);
}
