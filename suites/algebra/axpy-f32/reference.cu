// Reference for axpy-f32 (kernel in ../axpy-common.cuh).
#include "../axpy-common.cuh"

extern "C" void axpy(float* z, const float* x, const float* y, float alpha, int n) {
  axpy_reference(z, x, y, alpha, n);
}
