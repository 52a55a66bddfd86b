// Reference for reduce_max-bf16 (kernel in ../reduce_max-common.cuh): BF16 storage, FP32/FP64 arithmetic.
#include "../reduce_max-common.cuh"

extern "C" void reduce_max(__nv_bfloat16* out, const __nv_bfloat16* in, int n) {
  reduce_max_reference(out, in, n);
}
