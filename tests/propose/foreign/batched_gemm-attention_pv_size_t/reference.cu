// out[h] = probs[h] * v[h]: one thread per output element, blockIdx.z = head, double accumulation, one
// rounding (the suite's batched_gemm reference).
#include <cstddef>

__global__ void attention_pv_kernel(float* out, const float* probs, const float* v, size_t seq_len,
                                    size_t head_dim) {
  size_t const d = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  size_t const i = static_cast<size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  size_t const h = blockIdx.z;
  if (i >= seq_len || d >= head_dim) return;
  const float* p = probs + h * seq_len * seq_len + i * seq_len;
  const float* vh = v + h * seq_len * head_dim;
  double sum = 0.0;
  for (size_t j = 0; j < seq_len; ++j)
    sum += static_cast<double>(p[j]) * static_cast<double>(vh[j * head_dim + d]);
  out[h * seq_len * head_dim + i * head_dim + d] = static_cast<float>(sum);
}

extern "C" void attention_pv(float* out, const float* probs, const float* v, size_t heads, size_t seq_len,
                             size_t head_dim) {
  if (heads == 0 || seq_len == 0 || head_dim == 0) return;
  dim3 const block(16, 16);
  dim3 const grid(static_cast<unsigned>((head_dim + 15) / 16), static_cast<unsigned>((seq_len + 15) / 16),
                  static_cast<unsigned>(heads));
  attention_pv_kernel<<<grid, block>>>(out, probs, v, seq_len, head_dim);
}
