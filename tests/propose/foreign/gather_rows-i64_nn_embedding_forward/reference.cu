// nn.Embedding forward: one thread per output element, int64 indices.
#include <cstdint>

__global__ void embedding_forward_kernel(const int64_t* input, const float* weight, float* output,
                                         int64_t embedding_dim, int64_t num_indices) {
  int64_t const e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= num_indices * embedding_dim) return;
  int64_t const i = e / embedding_dim;
  int64_t const j = e % embedding_dim;
  output[e] = weight[input[i] * embedding_dim + j];
}

extern "C" void embedding_forward(const int64_t* input, const float* weight, float* output,
                                  int64_t num_embeddings, int64_t embedding_dim, int64_t num_indices) {
  (void)num_embeddings;
  int64_t const total = num_indices * embedding_dim;
  if (total <= 0) return;
  embedding_forward_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(input, weight, output,
                                                                                embedding_dim, num_indices);
}
