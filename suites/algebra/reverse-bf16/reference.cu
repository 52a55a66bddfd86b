// Reference for reverse-bf16 (kernel in ../reverse-common.cuh).
#include "../reverse-common.cuh"

extern "C" void reverse(__nv_bfloat16* out, const __nv_bfloat16* in, int n) {
  reverse_reference(out, in, n);
}
