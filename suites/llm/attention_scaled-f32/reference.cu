// Reference for suites/llm/attention_scaled-f32: the naive kernel of ../attention-common.cuh (FP32,
// non-causal) with the task's softmax scale, launched on the default stream.
#include "../attention-common.cuh"

extern "C" void attention_scaled(float* O, const float* Q, const float* K, const float* V, int BH, int S,
                                 int D, float scale) {
  llm_attention::launch<float, false>(O, Q, K, V, BH, S, D, scale);
}
