// Reference for scan-f32 (kernels in ../scan-common.cuh).
#include "../scan-common.cuh"

extern "C" void scan(float* out, const float* in, int n) {
  scan_reference(out, in, n);
}
