// Reference for vector_add-f32 (kernel in ../vector_add-common.cuh).
#include "../vector_add-common.cuh"

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  vector_add_reference(c, a, b, n);
}
