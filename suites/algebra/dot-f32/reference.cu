// Reference for dot-f32 (kernel in ../dot-common.cuh).
#include "../dot-common.cuh"

extern "C" void dot(float* result, const float* x, const float* y, int n) {
  dot_reference(result, x, y, n);
}
