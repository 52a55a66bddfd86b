// Scaled dot-product attention with a head size of 64 on BF16 tensors, one thread per query row (n, i): the
// scores q . k / 8 (8 = sqrt(64)) in float, their maximum, then the exponentials, their sum and the
// weighted sum of the v rows in float; each output rounded once to BF16.
#include <cuda_bf16.h>

constexpr int kHeadDim = 64;

__global__ void attention_hd64_kernel(__nv_bfloat16* out, const __nv_bfloat16* q, const __nv_bfloat16* k,
                                      const __nv_bfloat16* v, long long rows, int seq_len) {
  long long const row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  long long const slice = row / seq_len * seq_len * kHeadDim;  // the sequence's [seq_len][64] block
  float qrow[kHeadDim];
  for (int d = 0; d < kHeadDim; ++d) qrow[d] = __bfloat162float(q[row * kHeadDim + d]);
  float const scale = 1.0f / 8.0f;
  float max_score = -INFINITY;
  for (int j = 0; j < seq_len; ++j) {
    float dot = 0.0f;
    for (int d = 0; d < kHeadDim; ++d) dot += qrow[d] * __bfloat162float(k[slice + j * kHeadDim + d]);
    max_score = fmaxf(max_score, dot * scale);
  }
  float acc[kHeadDim];
  for (int d = 0; d < kHeadDim; ++d) acc[d] = 0.0f;
  float sum = 0.0f;
  for (int j = 0; j < seq_len; ++j) {
    float dot = 0.0f;
    for (int d = 0; d < kHeadDim; ++d) dot += qrow[d] * __bfloat162float(k[slice + j * kHeadDim + d]);
    float const p = expf(dot * scale - max_score);
    sum += p;
    for (int d = 0; d < kHeadDim; ++d) acc[d] += p * __bfloat162float(v[slice + j * kHeadDim + d]);
  }
  for (int d = 0; d < kHeadDim; ++d) out[row * kHeadDim + d] = __float2bfloat16(acc[d] / sum);
}

extern "C" void attention_hd64(__nv_bfloat16* out, const __nv_bfloat16* q, const __nv_bfloat16* k,
                               const __nv_bfloat16* v, int num_seqs, int seq_len) {
  long long const rows = static_cast<long long>(num_seqs) * seq_len;
  if (rows <= 0) return;
  attention_hd64_kernel<<<static_cast<unsigned>((rows + 127) / 128), 128>>>(out, q, k, v, rows, seq_len);
}
