// Reference for suites/llm/embedding-bf16: the naive kernel of ../embedding-common.cuh for __nv_bfloat16
// with int32 indices, launched on the default stream.
#include <cuda_bf16.h>

#include "../embedding-common.cuh"

extern "C" void embedding(__nv_bfloat16* out, const __nv_bfloat16* table, const int* idx, int n, int dim) {
  llm_embedding::launch(out, table, idx, n, dim);
}
