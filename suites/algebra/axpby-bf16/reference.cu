// Reference for axpby-bf16 (kernel in ../axpby-common.cuh).
#include "../axpby-common.cuh"

extern "C" void axpby(__nv_bfloat16* z, const __nv_bfloat16* x, const __nv_bfloat16* y, float alpha,
                      float beta, int n) {
  axpby_reference(z, x, y, alpha, beta, n);
}
