// Reference for vector_add-bf16 (kernel in ../vector_add-common.cuh): BF16 storage, FP32 arithmetic.
#include "../vector_add-common.cuh"

extern "C" void vector_add(__nv_bfloat16* c, const __nv_bfloat16* a, const __nv_bfloat16* b, int n) {
  vector_add_reference(c, a, b, n);
}
