// Reference for suites/llm/cross_entropy_mean-bf16: the naive kernel pair of ../cross_entropy_mean-common.cuh
// for __nv_bfloat16, launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include <cstdint>

#include "../cross_entropy_mean-common.cuh"

extern "C" void cross_entropy_mean(__nv_bfloat16* loss, const __nv_bfloat16* logits, const int64_t* labels,
                                   int N, int C) {
  llm_cross_entropy_mean::launch(loss, logits, labels, N, C);
}
