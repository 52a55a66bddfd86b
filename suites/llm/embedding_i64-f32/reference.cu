// Reference for suites/llm/embedding_i64-f32: the naive kernel of ../embedding-common.cuh for float with
// int64 indices (torch.nn.Embedding's index type), launched on the default stream.
#include <cstdint>

#include "../embedding-common.cuh"

extern "C" void embedding_i64(float* out, const float* table, const int64_t* idx, int n, int dim) {
  llm_embedding::launch(out, table, idx, n, dim);
}
