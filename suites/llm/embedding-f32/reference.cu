// Reference for suites/llm/embedding-f32: the naive kernel of ../embedding-common.cuh for float with int32
// indices, launched on the default stream (kopt builds launchers with per-thread default streams).
#include "../embedding-common.cuh"

extern "C" void embedding(float* out, const float* table, const int* idx, int n, int dim) {
  llm_embedding::launch(out, table, idx, n, dim);
}
