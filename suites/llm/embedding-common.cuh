// Shared by suites/llm/embedding-f32/-bf16 (int32 indices) and embedding_i64-f32/-bf16 (int64 indices, as
// torch.nn.Embedding): an embedding lookup, a row gather from a row-major vocab x dim table:
//   out[i][d] = table[idx[i]][d]   for 0 <= i < n, 0 <= d < dim, with 0 <= idx[i] < vocab.
// The launcher is not given vocab (the kernel does not need it; the task's inputs keep every index in the
// table). One thread per output element, each loading its row's index and copying one element, offsets in
// 64 bits: naive on purpose (4- or 2-byte accesses, an index load per element) but obviously correct. A
// copy: bit-exact, no arithmetic.
#pragma once
#include <cuda_bf16.h>

namespace llm_embedding {

template <typename T, typename I>
__global__ void embedding_reference_kernel(T* out, const T* table, const I* idx, int n, int dim) {
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  long long const total = static_cast<long long>(n) * dim;
  if (index >= total) return;
  long long const i = index / dim;
  int const d = static_cast<int>(index % dim);
  out[index] = table[static_cast<long long>(idx[i]) * dim + d];
}

template <typename T, typename I>
void launch(T* out, const T* table, const I* idx, int n, int dim) {
  long long const total = static_cast<long long>(n) * dim;
  if (total <= 0) return;
  int const block = 256;
  auto const grid = static_cast<unsigned int>((total + block - 1) / block);
  embedding_reference_kernel<<<grid, block>>>(out, table, idx, n, dim);
}

}  // namespace llm_embedding
