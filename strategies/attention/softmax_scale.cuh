// Shared by the attention templates: the softmax scale they fold into exp2 (flash_attention_simt.cu,
// flash_attention_mma.cu). Spliced in by `// kopt:include` before the templates' namespaces.
// KOPT_SCALED (a manifest `defines`): the entry takes the softmax scale last (`float scale`: FlashAttention's
// softmax_scale, SDPA's scale=), which replaces 1 / sqrt(D); without it the template is as it always was.
#ifndef KOPT_SCALED
#define KOPT_SCALED 0
#endif
#if KOPT_SCALED
#define KOPT_SCALE_PARAM , float scale
#define KOPT_SCALE_ARG , scale
#define KOPT_SCALE_LOG2 (1.4426950408889634f * scale)
#else
#define KOPT_SCALE_PARAM
#define KOPT_SCALE_ARG
#define KOPT_SCALE_LOG2 (1.4426950408889634f / sqrtf(static_cast<float>(D)))
#endif
