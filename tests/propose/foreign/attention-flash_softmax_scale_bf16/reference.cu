// Attention with the caller's softmax scale, one thread per query row: scores in float, their maximum,
// then the exponentials, their sum and the weighted sum of the value rows in double, one rounding to BF16.
// Head dimensions up to 128.
#include <cuda_bf16.h>

__global__ void mha_fwd_kernel(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                               __nv_bfloat16* out, long long rows, int seqlen, int head_dim,
                               float softmax_scale) {
  long long const row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  long long const slice = row / seqlen * seqlen * head_dim;
  const __nv_bfloat16* qr = q + row * head_dim;
  float max_score = -INFINITY;
  for (int j = 0; j < seqlen; ++j) {
    const __nv_bfloat16* kr = k + slice + static_cast<long long>(j) * head_dim;
    float dot = 0.0f;
    for (int d = 0; d < head_dim; ++d) dot += __bfloat162float(qr[d]) * __bfloat162float(kr[d]);
    max_score = fmaxf(max_score, dot * softmax_scale);
  }
  double acc[128];
  for (int d = 0; d < head_dim; ++d) acc[d] = 0.0;
  double sum = 0.0;
  for (int j = 0; j < seqlen; ++j) {
    const __nv_bfloat16* kr = k + slice + static_cast<long long>(j) * head_dim;
    const __nv_bfloat16* vr = v + slice + static_cast<long long>(j) * head_dim;
    float dot = 0.0f;
    for (int d = 0; d < head_dim; ++d) dot += __bfloat162float(qr[d]) * __bfloat162float(kr[d]);
    double const p = exp(static_cast<double>(dot * softmax_scale - max_score));
    sum += p;
    for (int d = 0; d < head_dim; ++d) acc[d] += p * __bfloat162float(vr[d]);
  }
  for (int d = 0; d < head_dim; ++d)
    out[row * head_dim + d] = __float2bfloat16_rn(static_cast<float>(acc[d] / sum));
}

extern "C" void mha_fwd(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                        __nv_bfloat16* out, int batch_heads, int seqlen, int head_dim, float softmax_scale) {
  long long const rows = static_cast<long long>(batch_heads) * seqlen;
  if (rows <= 0 || head_dim <= 0 || head_dim > 128) return;
  mha_fwd_kernel<<<static_cast<unsigned>((rows + 127) / 128), 128>>>(q, k, v, out, rows, seqlen, head_dim,
                                                                     softmax_scale);
}
