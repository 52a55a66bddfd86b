// Vendor baseline for reverse-f32: thrust::copy from a reverse iterator (../reverse-thrust.cuh).
#include "../reverse-thrust.cuh"

extern "C" void reverse(float* out, const float* in, int n) {
  reverse_baseline_thrust(out, in, n);
}
