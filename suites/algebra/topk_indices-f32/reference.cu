// Reference for topk_indices-f32 (selection kernel in ../topk_indices-common.cuh).
#include "../topk_indices-common.cuh"

extern "C" void topk_indices(float* values, int* indices, const float* in, int rows, int cols, int k) {
  topk_indices_reference(values, indices, in, rows, cols, k);
}
