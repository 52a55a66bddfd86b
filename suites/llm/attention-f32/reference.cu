// Reference for suites/llm/attention-f32: the naive kernel of ../attention-common.cuh for float
// (non-causal), launched on the default stream.
#include <cuda_bf16.h>

#include "../attention-common.cuh"

extern "C" void attention(float* O, const float* Q, const float* K, const float* V, int BH, int S, int D) {
  llm_attention::launch<float, false>(O, Q, K, V, BH, S, D);
}
