// Reference for suites/llm/cross_entropy-f32: the naive kernel of ../cross_entropy-common.cuh for float,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../cross_entropy-common.cuh"

extern "C" void cross_entropy(float* loss, const float* logits, const int* labels, int N, int C) {
  llm_cross_entropy::launch(loss, logits, labels, N, C);
}
