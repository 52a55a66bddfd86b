// Reference for suites/llm/embedding_i64-bf16: the naive kernel of ../embedding-common.cuh for
// __nv_bfloat16 with int64 indices (torch.nn.Embedding's index type), launched on the default stream.
#include <cuda_bf16.h>

#include <cstdint>

#include "../embedding-common.cuh"

extern "C" void embedding_i64(__nv_bfloat16* out, const __nv_bfloat16* table, const int64_t* idx, int n,
                              int dim) {
  llm_embedding::launch(out, table, idx, n, dim);
}
