// Shared by the attention templates (flash_attention_simt.cu, flash_attention_mma.cu): the softmax scale
// they fold into exp2, and the keys' sequence length. Spliced in by `// kopt:include` before the
// templates' namespaces.
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

// KOPT_CROSS (a manifest `defines`): cross-attention, keys and values with a sequence length of their own
// (K and V [BH][S_kv][D], Q and O [BH][S][D]); the entry takes S_kv after D (and before a KOPT_SCALED
// scale). Causal masking stays top-left aligned (query i sees keys j <= i), as PyTorch's SDPA does.
#ifndef KOPT_CROSS
#define KOPT_CROSS 0
#endif
#if KOPT_CROSS
#define KOPT_KEYS_PARAM , int S_kv
#define KOPT_KEYS_ARG , S_kv
#define KOPT_KEYS S_kv
#define KOPT_KV_OFFSET (static_cast<long long>(bh) * S_kv * D)
#else
#define KOPT_KEYS_PARAM
#define KOPT_KEYS_ARG
#define KOPT_KEYS S
#define KOPT_KV_OFFSET offset
#endif
