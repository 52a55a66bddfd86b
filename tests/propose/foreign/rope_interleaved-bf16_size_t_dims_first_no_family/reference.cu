// LLaMA (Meta's reference code) rotary embedding on BF16: view each head as head_dim/2 complex numbers
// (q[2i] + j q[2i+1]) and multiply by freqs_cis[s][i] = freqs_cos + j freqs_sin. One thread per output.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void llama_rotary_kernel(size_t head_dim, size_t num_heads, size_t seq, const __nv_bfloat16* q,
                                    const __nv_bfloat16* freqs_cos, const __nv_bfloat16* freqs_sin,
                                    __nv_bfloat16* q_out) {
  size_t const e = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= seq * num_heads * head_dim) return;
  size_t const d = e % head_dim;
  size_t const s = e / (num_heads * head_dim);
  size_t const i = d / 2;
  float const re = __bfloat162float(q[e - d % 2]);
  float const im = __bfloat162float(q[e - d % 2 + 1]);
  float const c = __bfloat162float(freqs_cos[s * (head_dim / 2) + i]);
  float const sn = __bfloat162float(freqs_sin[s * (head_dim / 2) + i]);
  q_out[e] = __float2bfloat16(d % 2 == 0 ? re * c - im * sn : re * sn + im * c);
}

extern "C" void llama_rotary_bf16(size_t head_dim, size_t num_heads, size_t seq, const __nv_bfloat16* q,
                                  const __nv_bfloat16* freqs_cos, const __nv_bfloat16* freqs_sin,
                                  __nv_bfloat16* q_out) {
  size_t const total = seq * num_heads * head_dim;
  if (total == 0) return;
  llama_rotary_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(head_dim, num_heads, seq, q,
                                                                           freqs_cos, freqs_sin, q_out);
}
