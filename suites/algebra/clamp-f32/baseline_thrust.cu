// Vendor baseline for clamp-f32: thrust::transform (../clamp-thrust.cuh).
#include "../clamp-thrust.cuh"

extern "C" void clamp(float* y, const float* x, float lo, float hi, int n) {
  clamp_baseline_thrust(y, x, lo, hi, n);
}
