// Shared by row_argmax-f32 and row_argmax-bf16: out[r] = the column of the largest in[r*cols + c] over
// c < cols (greedy decoding over a vocabulary; torch.argmax(dim=-1) with 32-bit indices): the first such
// column on ties (BF16 logits tie often), NaN counting as the largest.
//
// Reference: one thread per row scanning its row in order: naive on purpose (uncoalesced), obviously right.
// The vendor baseline (CUB) is in row_argmax-cub.cuh.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

template <typename T>
__global__ void row_argmax_reference_kernel(int* out, const T* in, int rows, int cols) {
  long long const r = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const T* row = in + r * cols;
  int best = 0;
  float best_value = cols > 0 ? static_cast<float>(row[0]) : 0.0f;
  for (int c = 1; c < cols; ++c) {
    float const v = static_cast<float>(row[c]);
    if (best_value != best_value) break;  // a NaN is the largest: the first one wins
    if (v != v || v > best_value) {
      best = c;
      best_value = v;
    }
  }
  out[r] = best;
}

template <typename T>
void row_argmax_reference(int* out, const T* in, int rows, int cols) {
  if (rows <= 0) return;
  row_argmax_reference_kernel<T><<<(rows + 127) / 128, 128>>>(out, in, rows, cols);
}
