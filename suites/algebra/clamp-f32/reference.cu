// Reference for clamp-f32 (kernel in ../clamp-common.cuh).
#include "../clamp-common.cuh"

extern "C" void clamp(float* y, const float* x, float lo, float hi, int n) {
  clamp_reference(y, x, lo, hi, n);
}
