// Reference for suites/llm/attention_cross-bf16: the naive kernel of ../attention-common.cuh (BF16 storage,
// FP32 math, non-causal) with S_kv keys and values per slice, launched on the default stream.
#include <cuda_bf16.h>

#include "../attention-common.cuh"

extern "C" void attention_cross(__nv_bfloat16* O, const __nv_bfloat16* Q, const __nv_bfloat16* K,
                                const __nv_bfloat16* V, int BH, int S, int D, int S_kv) {
  llm_attention::launch<__nv_bfloat16, false>(O, Q, K, V, BH, S, D, llm_attention::default_scale(D), S_kv);
}
