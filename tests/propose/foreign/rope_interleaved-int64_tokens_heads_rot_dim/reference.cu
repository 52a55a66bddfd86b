// One thread per (token, head, pair): rotates the adjacent pair (2i, 2i+1) in FP32.
#include <cstdint>

__global__ void rotary_gptj_kernel(float* output, const float* input, const float* cos_cache,
                                   const float* sin_cache, int64_t num_tokens, int64_t num_heads,
                                   int64_t rot_dim) {
  int64_t const half = rot_dim / 2;
  int64_t const id = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (id >= num_tokens * num_heads * half) return;
  int64_t const i = id % half;
  int64_t const head = (id / half) % num_heads;
  int64_t const token = id / (half * num_heads);
  int64_t const at = (token * num_heads + head) * rot_dim + 2 * i;
  float const c = cos_cache[token * half + i];
  float const s = sin_cache[token * half + i];
  float const a = input[at];
  float const b = input[at + 1];
  output[at] = a * c - b * s;
  output[at + 1] = b * c + a * s;
}

extern "C" void rotary_embedding_gptj(float* output, const float* input, const float* cos_cache,
                                      const float* sin_cache, int64_t num_tokens, int64_t num_heads,
                                      int64_t rot_dim) {
  int64_t const work = num_tokens * num_heads * (rot_dim / 2);
  if (work <= 0) return;
  rotary_gptj_kernel<<<static_cast<unsigned>((work + 127) / 128), 128>>>(output, input, cos_cache, sin_cache,
                                                                         num_tokens, num_heads, rot_dim);
}
