// Reference for axpy-bf16 (kernel in ../axpy-common.cuh).
#include "../axpy-common.cuh"

extern "C" void axpy(__nv_bfloat16* z, const __nv_bfloat16* x, const __nv_bfloat16* y, float alpha, int n) {
  axpy_reference(z, x, y, alpha, n);
}
