// Reference for suites/llm/cross_entropy_mean-f32: the naive kernel pair of ../cross_entropy_mean-common.cuh
// for float, launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include <cstdint>

#include "../cross_entropy_mean-common.cuh"

extern "C" void cross_entropy_mean(float* loss, const float* logits, const int64_t* labels, int N, int C) {
  llm_cross_entropy_mean::launch(loss, logits, labels, N, C);
}
