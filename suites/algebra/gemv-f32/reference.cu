// Reference for gemv-f32 (kernels in ../gemv-common.cuh).
#include "../gemv-common.cuh"

extern "C" void gemv(float* y, const float* A, const float* x, int M, int N) {
  gemv_reference(y, A, x, M, N);
}
