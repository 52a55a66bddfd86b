// Reference for matrix_power-bf16 (kernels in ../matrix_power-common.cuh): BF16 storage, p - 1 naive
// products by A with intermediates kept at full precision, one rounding to BF16 at the end.
#include "../matrix_power-common.cuh"

extern "C" void matrix_power(__nv_bfloat16* out, const __nv_bfloat16* A, int n, int p) {
  matrix_power_reference(out, A, n, p);
}
