// Reference for scan-bf16 (kernels in ../scan-common.cuh): BF16 storage.
#include "../scan-common.cuh"

extern "C" void scan(__nv_bfloat16* out, const __nv_bfloat16* in, int n) {
  scan_reference(out, in, n);
}
