// Reference for suites/llm/attention_cross-f32: the naive kernel of ../attention-common.cuh (FP32,
// non-causal) with S_kv keys and values per slice, launched on the default stream.
#include "../attention-common.cuh"

extern "C" void attention_cross(float* O, const float* Q, const float* K, const float* V, int BH, int S,
                                int D, int S_kv) {
  llm_attention::launch<float, false>(O, Q, K, V, BH, S, D, llm_attention::default_scale(D), S_kv);
}
