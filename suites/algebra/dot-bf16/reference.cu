// Reference for dot-bf16 (kernel in ../dot-common.cuh): BF16 storage, FP32/FP64 arithmetic.
#include "../dot-common.cuh"

extern "C" void dot(__nv_bfloat16* result, const __nv_bfloat16* x, const __nv_bfloat16* y, int n) {
  dot_reference(result, x, y, n);
}
