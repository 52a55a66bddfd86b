// Reference for topk_indices-bf16 (selection kernel in ../topk_indices-common.cuh).
#include "../topk_indices-common.cuh"

extern "C" void topk_indices(__nv_bfloat16* values, int* indices, const __nv_bfloat16* in, int rows, int cols,
                             int k) {
  topk_indices_reference(values, indices, in, rows, cols, k);
}
