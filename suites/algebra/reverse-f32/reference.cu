// Reference for reverse-f32 (kernel in ../reverse-common.cuh).
#include "../reverse-common.cuh"

extern "C" void reverse(float* out, const float* in, int n) {
  reverse_reference(out, in, n);
}
