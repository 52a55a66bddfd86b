// Reference for suites/llm/attention_causal-bf16: the naive kernel of ../attention-common.cuh for BF16
// storage with FP32 math (causal: query i sees keys j <= i), launched on the default stream.
#include <cuda_bf16.h>

#include "../attention-common.cuh"

extern "C" void attention(__nv_bfloat16* O, const __nv_bfloat16* Q, const __nv_bfloat16* K,
                          const __nv_bfloat16* V, int BH, int S, int D) {
  llm_attention::launch<__nv_bfloat16, true>(O, Q, K, V, BH, S, D);
}
