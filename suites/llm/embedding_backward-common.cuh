// Shared by suites/llm/embedding_backward-f32/-bf16 (int32 indices) and embedding_backward_i64-f32/-bf16
// (int64 indices, as torch.nn.Embedding): the weight gradient of an embedding lookup, a row scatter-add
// (index_add_ over dim 0) into a row-major vocab x dim matrix:
//   out[idx[i]][d] += src[i][d]   for 0 <= i < n, 0 <= d < dim, with 0 <= idx[i] < vocab,
// where src is the gradient of the lookup's output (n x dim) and out the table's gradient, read and
// written (an inout buffer: rows no token names keep their values). A token id may repeat: its rows add
// up. The launcher is not given vocab (the kernel does not need it; the task's inputs keep every index in
// out). One thread per source element, each loading its row's index and adding one element with an
// atomic (float, or BF16 rounded after every add), offsets in 64 bits: naive on purpose (an index load and
// a 4- or 2-byte atomic per element) but obviously correct. The order of the adds to a repeated row is
// whatever order the atomics arrive in, so two runs may differ by rounding (the task's tolerance says by
// how much).
#pragma once
#include <cuda_bf16.h>

namespace llm_embedding_backward {

template <typename T, typename I>
__global__ void embedding_backward_reference_kernel(T* out, const T* src, const I* idx, int n, int dim) {
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  long long const total = static_cast<long long>(n) * dim;
  if (index >= total) return;
  long long const i = index / dim;
  int const d = static_cast<int>(index % dim);
  atomicAdd(out + static_cast<long long>(idx[i]) * dim + d, src[index]);
}

template <typename T, typename I>
void launch(T* out, const T* src, const I* idx, int n, int dim) {
  long long const total = static_cast<long long>(n) * dim;
  if (total <= 0) return;
  int const block = 256;
  auto const grid = static_cast<unsigned int>((total + block - 1) / block);
  embedding_backward_reference_kernel<<<grid, block>>>(out, src, idx, n, dim);
}

}  // namespace llm_embedding_backward
