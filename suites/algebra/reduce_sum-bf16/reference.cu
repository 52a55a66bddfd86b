// Reference for reduce_sum-bf16 (kernel in ../reduce_sum-common.cuh): BF16 storage, FP32/FP64 arithmetic.
#include "../reduce_sum-common.cuh"

extern "C" void reduce_sum(__nv_bfloat16* out, const __nv_bfloat16* in, int n) {
  reduce_sum_reference(out, in, n);
}
