// Reference for reduce_max-f32 (kernel in ../reduce_max-common.cuh).
#include "../reduce_max-common.cuh"

extern "C" void reduce_max(float* out, const float* in, int n) {
  reduce_max_reference(out, in, n);
}
