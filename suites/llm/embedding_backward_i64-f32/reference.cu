// Reference for suites/llm/embedding_backward_i64-f32: the naive kernel of ../embedding_backward-common.cuh
// for float, launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cstdint>

#include "../embedding_backward-common.cuh"

extern "C" void embedding_backward_i64(float* out, const float* src, const int64_t* idx, int n, int dim) {
  llm_embedding_backward::launch(out, src, idx, n, dim);
}
