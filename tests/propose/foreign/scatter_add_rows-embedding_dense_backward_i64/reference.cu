// nn.Embedding backward: one thread per gradient element, int64 indices, an atomic add into the row.
#include <cstdint>

__global__ void embedding_backward_kernel(const float* grad_output, const int64_t* indices,
                                          float* grad_weight, int64_t num_indices, int64_t embedding_dim) {
  int64_t const e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= num_indices * embedding_dim) return;
  int64_t const i = e / embedding_dim;
  int64_t const j = e % embedding_dim;
  atomicAdd(&grad_weight[indices[i] * embedding_dim + j], grad_output[e]);
}

extern "C" void embedding_backward_f32(const float* grad_output, const int64_t* indices, float* grad_weight,
                                       int64_t num_indices, int64_t embedding_dim, int64_t num_weights) {
  (void)num_weights;
  int64_t const total = num_indices * embedding_dim;
  if (total <= 0) return;
  embedding_backward_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(
      grad_output, indices, grad_weight, num_indices, embedding_dim);
}
