// Reference for gemv-bf16 (kernels in ../gemv-common.cuh): BF16 storage.
#include "../gemv-common.cuh"

extern "C" void gemv(__nv_bfloat16* y, const __nv_bfloat16* A, const __nv_bfloat16* x, int M, int N) {
  gemv_reference(y, A, x, M, N);
}
