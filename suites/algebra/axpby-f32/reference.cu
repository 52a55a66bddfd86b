// Reference for axpby-f32 (kernel in ../axpby-common.cuh).
#include "../axpby-common.cuh"

extern "C" void axpby(float* z, const float* x, const float* y, float alpha, float beta, int n) {
  axpby_reference(z, x, y, alpha, beta, n);
}
