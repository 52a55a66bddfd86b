// Reference for sort-bf16 (bitonic network in ../sort-common.cuh).
#include "../sort-common.cuh"

extern "C" void sort(__nv_bfloat16* out, const __nv_bfloat16* in, int n) {
  sort_reference(out, in, n);
}
