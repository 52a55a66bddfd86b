// Causal scaled dot-product attention on BF16 tensors, one thread per query row (slice, i): the scores
// q . k / sqrt(head_dim) of keys 0..i in float, their maximum, then the exponentials, their sum and the
// weighted sum of the v rows in float; each output rounded once to BF16. Head dimensions up to 128.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void causal_attention_bf16_kernel(const __nv_bfloat16* q, const __nv_bfloat16* k,
                                             const __nv_bfloat16* v, __nv_bfloat16* o, int64_t rows,
                                             int64_t seq_len, int64_t head_dim) {
  int64_t const row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  int64_t const i = row % seq_len;
  int64_t const slice = (row - i) * head_dim;  // the slice's [seq_len][head_dim] block
  float const scale = 1.0f / sqrtf(static_cast<float>(head_dim));
  float qrow[128];
  for (int64_t d = 0; d < head_dim; ++d) qrow[d] = __bfloat162float(q[row * head_dim + d]);
  float max_score = -INFINITY;
  for (int64_t j = 0; j <= i; ++j) {
    float dot = 0.0f;
    for (int64_t d = 0; d < head_dim; ++d) dot += qrow[d] * __bfloat162float(k[slice + j * head_dim + d]);
    max_score = fmaxf(max_score, dot * scale);
  }
  float acc[128];
  for (int64_t d = 0; d < head_dim; ++d) acc[d] = 0.0f;
  float sum = 0.0f;
  for (int64_t j = 0; j <= i; ++j) {
    float dot = 0.0f;
    for (int64_t d = 0; d < head_dim; ++d) dot += qrow[d] * __bfloat162float(k[slice + j * head_dim + d]);
    float const p = expf(dot * scale - max_score);
    sum += p;
    for (int64_t d = 0; d < head_dim; ++d) acc[d] += p * __bfloat162float(v[slice + j * head_dim + d]);
  }
  for (int64_t d = 0; d < head_dim; ++d) o[row * head_dim + d] = __float2bfloat16(acc[d] / sum);
}

extern "C" void causal_attention_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                                      __nv_bfloat16* o, int64_t n_slices, int64_t seq_len, int64_t head_dim) {
  int64_t const rows = n_slices * seq_len;
  if (rows <= 0 || head_dim <= 0 || head_dim > 128) return;
  causal_attention_bf16_kernel<<<static_cast<unsigned>((rows + 127) / 128), 128>>>(q, k, v, o, rows, seq_len,
                                                                                   head_dim);
}
