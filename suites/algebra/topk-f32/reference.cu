// Reference for topk-f32 (selection kernel in ../topk-common.cuh).
#include "../topk-common.cuh"

extern "C" void topk(float* out, const float* in, int rows, int cols, int k) {
  topk_reference(out, in, rows, cols, k);
}
