// Reference for suites/llm/embedding_backward-bf16: the naive kernel of ../embedding_backward-common.cuh
// for __nv_bfloat16, launched on the default stream (kopt builds launchers with per-thread default streams).
#include "../embedding_backward-common.cuh"

extern "C" void embedding_backward(__nv_bfloat16* out, const __nv_bfloat16* src, const int* idx, int n,
                                   int dim) {
  llm_embedding_backward::launch(out, src, idx, n, dim);
}
