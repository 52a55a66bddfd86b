// Reference for suites/llm/cross_entropy-bf16: the naive kernel of ../cross_entropy-common.cuh for
// __nv_bfloat16, launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../cross_entropy-common.cuh"

extern "C" void cross_entropy(float* loss, const __nv_bfloat16* logits, const int* labels, int N, int C) {
  llm_cross_entropy::launch(loss, logits, labels, N, C);
}
