// Reference for suites/llm/attention_causal-f32: the naive kernel of ../attention-common.cuh for float
// (causal: query i sees keys j <= i), launched on the default stream.
#include <cuda_bf16.h>

#include "../attention-common.cuh"

extern "C" void attention(float* O, const float* Q, const float* K, const float* V, int BH, int S, int D) {
  llm_attention::launch<float, true>(O, Q, K, V, BH, S, D);
}
